import { SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { PRODUCT_INVENTORY_SLOTS } from '@/contract/site-api';
import { TextField } from '../editor/form-fields';
import { inventoryLabel, productTierDescription, productTierLabels } from '../editor/labels';
import { PriceGrid } from '../editor/price-grid';

export function PricingStep() {
  return (
    <Stack gap="lg">
      <Stack gap={4}>
        <Title order={3} size="h4">
          Prices
        </Title>
        <Text size="sm" c="dimmed" maw={720}>
          Type amounts in major units (19.99). Arrow keys and Enter move between cells; paste a block copied from a
          spreadsheet into any cell to fill from there; Escape leaves the grid.
        </Text>
      </Stack>
      <PriceGrid base="prices" tierLabels={productTierLabels()} caption="Product prices" description={productTierDescription()} />
      <Stack gap="sm" maw={820}>
        <Title order={3} size="h4">
          Inventory
        </Title>
        <SimpleGrid cols={{ base: 1, sm: 3 }}>
          {PRODUCT_INVENTORY_SLOTS.map((slot, i) => (
            <TextField key={slot} path={`inventory.${i}`} label={inventoryLabel(i)} autoComplete="off" />
          ))}
        </SimpleGrid>
      </Stack>
    </Stack>
  );
}
