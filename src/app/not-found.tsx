import { Button, Stack, Text, Title } from '@mantine/core';
import { pathTo } from '@/lib/paths';
import { Link, useLocation } from '@/lib/router';

export function NotFoundPage() {
  const location = useLocation();
  return (
    <Stack align="flex-start" gap="sm" maw={560}>
      <Title order={1}>Page not found</Title>
      <Text>
        There is no page at <code>{location.pathname}</code>. The link may be mistyped or out of date.
      </Text>
      <Button component={Link} to={pathTo('cases')}>
        Go to Cases
      </Button>
    </Stack>
  );
}
