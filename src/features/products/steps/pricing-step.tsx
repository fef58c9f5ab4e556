import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { RegistryField } from '../editor/form-fields';
import { PriceGrid } from '../editor/price-grid';
import { useProductSettings } from '../editor/settings';

export function PricingStep() {
  const { fields } = useProductSettings();
  const inventory = fields.product.filter((def) => def.step === 'pricing' && def.kind !== 'money');
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={3} size="h4">
          Prices
        </Title>
        <Text size="sm" c="dimmed" maw={720}>
          Type amounts in major units (19.99). Arrow keys and Enter move between cells; paste a block copied from a spreadsheet into any
          cell to fill from there; Escape leaves the grid.
        </Text>
      </Stack>
      <PriceGrid scope="product" base="prices" caption="Product prices" />
      <Stack gap="sm" maw={820}>
        <Title order={3} size="h4">
          Inventory
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {inventory.map((def) => (
            <RegistryField key={def.wire} def={def} />
          ))}
        </SimpleGrid>
      </Stack>
    </Stack>
  );
}
