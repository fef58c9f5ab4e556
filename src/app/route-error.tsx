import { Alert, Button, Container, Stack, Text, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';

/** Shown when a page fails to load or render: says so plainly and offers a reload. */
export function RouteError() {
  const error = useRouteError();
  const message = isRouteErrorResponse(error)
    ? `${error.status} ${error.statusText}`
    : error instanceof Error
      ? error.message
      : 'Unknown error';
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1}>Something went wrong</Title>
        <Alert color="red" title="This page could not be shown">
          <Text size="sm">{message}</Text>
        </Alert>
        <Text size="sm">Drafts are kept in this browser; reloading does not lose them.</Text>
        <Button onClick={() => window.location.reload()} w="fit-content">
          Reload
        </Button>
      </Stack>
    </Container>
  );
}
