import { Alert, Button, Container, Stack, Text, Title } from '@mantine/core';
import { Component, type ErrorInfo, type ReactNode } from 'react';

interface State {
  error: Error | null;
}

/**
 * Catches a page that fails to load or render: says so plainly and offers a reload, instead of a
 * blank screen. Keyed by the path, so moving to another page tries again.
 */
export class RouteErrorBoundary extends Component<{ children: ReactNode }, State> {
  override state: State = { error: null };

  static getDerivedStateFromError(error: unknown): State {
    return { error: error instanceof Error ? error : new Error(String(error)) };
  }

  override componentDidCatch(error: unknown, info: ErrorInfo) {
    console.error('site-admin: a page failed', error, info.componentStack);
  }

  override render() {
    if (!this.state.error) return this.props.children;
    return (
      <Container size="sm" py="xl">
        <Stack>
          <Title order={1}>Something went wrong</Title>
          <Alert color="red" title="This page could not be shown">
            <Text size="sm">{this.state.error.message}</Text>
          </Alert>
          <Text size="sm">Drafts are kept in this browser; reloading does not lose them.</Text>
          <Button onClick={() => window.location.reload()} w="fit-content">
            Reload
          </Button>
        </Stack>
      </Container>
    );
  }
}
