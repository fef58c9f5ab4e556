/**
 * What the editor shows after a failed create: a specific message for each kind of failure.
 */
import { Alert, Button, Checkbox, List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ErrorDetail } from '@/contract/site-api';
import { ApiError } from '@/lib/api-client';

/** True when the platform may have created the product even though we got no clear answer. */
export function isOutcomeUnknown(error: unknown): boolean {
  if (!(error instanceof ApiError)) return true;
  return error.kind !== 'api' || error.status >= 500;
}

export function CreateFailure({ error, unmapped, onRetry }: { error: unknown; unmapped: readonly ErrorDetail[]; onRetry: () => void }) {
  const [checked, setChecked] = useState(false);
  if (!(error instanceof ApiError) || isOutcomeUnknown(error)) {
    const reason =
      error instanceof ApiError && error.kind === 'timeout'
        ? 'The platform did not answer in time.'
        : error instanceof ApiError && error.status >= 500
          ? `Our server could not get a clear answer from the platform (${error.status} ${error.error}: ${error.message})`
          : error instanceof ApiError && error.kind === 'invalid-response'
            ? 'The answer could not be read.'
            : 'The connection failed before an answer arrived.';
    return (
      <Alert color="orange" title="We can't tell whether the product was created" role="alert">
        <Stack gap="xs">
          <Text size="sm">
            {reason} The platform may have created it. Your product is kept as a draft in this browser. Before
            trying again, check the site's catalogue for it, so it is not created twice. Create stays off until you
            confirm.
          </Text>
          <Checkbox
            label="I checked: the product is not in the catalogue"
            checked={checked}
            onChange={(event) => setChecked(event.currentTarget.checked)}
          />
          <Button w="fit-content" variant="light" color="orange" disabled={!checked} onClick={onRetry}>
            Let me create it again
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (error.status === 401 || error.status === 403) {
    return (
      <Alert color="red" title={error.status === 401 ? 'The platform refused our server’s credentials' : 'Our server has no permission on this site'} role="alert">
        <Text size="sm">
          {error.message} This is a configuration matter for whoever runs site-admin (its API key and site id); this
          browser holds no key. Nothing was created, and your product is kept as a draft.
        </Text>
      </Alert>
    );
  }
  return (
    <Alert color="red" title={`The platform did not accept the product (${error.status} ${error.error})`} role="alert">
      <Stack gap={4}>
        <Text size="sm">
          {error.message} Nothing was created. The fields it named are marked; your product is kept as a draft.
        </Text>
        {unmapped.length > 0 && (
          <List size="sm">
            {unmapped.map((d, i) => (
              <List.Item key={i}>
                {d.field ? <code>{d.field}</code> : 'The request'}: {d.message}
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Alert>
  );
}
