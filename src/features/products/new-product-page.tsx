import { Stack, Text, Title } from '@mantine/core';

export function NewProductPage() {
  return (
    <Stack>
      <Title order={1}>New product</Title>
      <Text c="dimmed">Create a product in the site's catalogue.</Text>
    </Stack>
  );
}
