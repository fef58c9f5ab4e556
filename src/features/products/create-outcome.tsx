/**
 * What the editor shows after a failed create. What the answer means is decided once, for the import too,
 * by `writeMeaning` (src/lib/api-error-class.ts): no clear answer leaves the outcome unknown, so Create
 * waits for a confirmation; an answer that says it was not processed (429, 503 with Retry-After) means
 * nothing was created and Create may be pressed again once the wait has passed.
 */
import { Alert, Button, Checkbox, List, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ErrorDetail } from '@/contract/site-api';
import { ApiError } from '@/lib/api-client';
import { classifyApiError, describeFailure, statusText, writeMeaning } from '@/lib/api-error-class';

export function CreateFailure({ error, unmapped, onRetry }: { error: unknown; unmapped: readonly ErrorDetail[]; onRetry: () => void }) {
  const [checked, setChecked] = useState(false);
  const failure = classifyApiError(error);
  // What a server said, where one did (an error body's message).
  const said = error instanceof ApiError && error.kind === 'api' && error.message ? ` It said: “${error.message}”` : '';
  const meaning = writeMeaning(error);
  if (meaning.type === 'not-processed') {
    const wait = meaning.afterMs === null ? 'in a moment' : `in ${Math.max(1, Math.ceil(meaning.afterMs / 1000))} s`;
    return (
      <Alert color="yellow" title={`${failure.type === 'answered' && failure.by === 'server' ? 'site-admin’s server' : 'The platform'} asked us to slow down`} role="alert">
        <Text size="sm">
          {describeFailure(failure)}
          {said} The product was not created: the answer says the request was not processed. Press Create again {wait}; your
          product is kept as a draft.
        </Text>
      </Alert>
    );
  }
  if (meaning.type === 'unknown') {
    const reason = `${describeFailure(failure)}${failure.type === 'answered' ? said : ''}`;
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
  if (meaning.type === 'configuration' && failure.type === 'configuration') {
    const title =
      failure.by === 'server'
        ? `site-admin’s server refused the request (${statusText(failure.status)})`
        : failure.status === 401
          ? 'The platform refused our server’s credentials'
          : 'Our server has no permission on this site';
    const remedy =
      failure.by === 'server'
        ? 'Reload the page (and sign in again if asked), then create from here.'
        : 'This is a configuration matter for whoever runs site-admin (its API key and site id); this browser holds no key.';
    return (
      <Alert color="red" title={title} role="alert">
        <Text size="sm">
          {describeFailure(failure)}
          {said} {remedy} Nothing was created, and your product is kept as a draft.
        </Text>
      </Alert>
    );
  }
  const who = failure.type === 'answered' && failure.by === 'server' ? 'site-admin’s server' : 'The platform';
  const status = failure.type === 'answered' ? ` (${statusText(failure.status)})` : '';
  return (
    <Alert color="red" title={`${who} did not accept the product${status}`} role="alert">
      <Stack gap={4}>
        <Text size="sm">
          {error instanceof Error ? error.message : ''} Nothing was created. The fields it named are marked; your product is kept as a
          draft.
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
