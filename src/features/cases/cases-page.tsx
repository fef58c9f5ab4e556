import { Stack, Text, Title } from '@mantine/core';

export function CasesPage() {
  return (
    <Stack>
      <Title order={1}>Cases</Title>
      <Text c="dimmed">Look up one form submission by its form and case identifiers.</Text>
    </Stack>
  );
}
