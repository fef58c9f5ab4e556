import { SimpleGrid, Stack, Title } from '@mantine/core';
import { RegistryField } from '../editor/form-fields';
import { useProductSettings } from '../editor/settings';

export function PlacementStep() {
  const { fields } = useProductSettings();
  const placement = fields.product.filter((def) => def.step === 'placement');
  const references = placement.filter((def) => def.kind === 'references');
  const details = placement.filter((def) => def.kind !== 'references');
  return (
    <Stack gap="lg" maw={820}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          Catalogue placement
        </Title>
        {references.map((def) => (
          <RegistryField key={def.wire} def={def} />
        ))}
      </Stack>
      <Stack gap="sm">
        <Title order={3} size="h4">
          Product fields
        </Title>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {details.map((def) => (
            <RegistryField key={def.wire} def={def} />
          ))}
        </SimpleGrid>
      </Stack>
    </Stack>
  );
}
