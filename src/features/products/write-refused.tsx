/**
 * The end of a failed write that both the create and a correction show alike: refused for a key, a right
 * or a sign-in (configuration), or refused for what it held (the fields the platform named are marked in
 * the editor; the rest are listed here). Each caller shows its own not-processed and unknown outcomes.
 */
import { Alert, List, Stack, Text } from '@mantine/core';
import type { ErrorDetail } from '@/contract/site-api';
import { classifyApiError } from '@/lib/api-error';

export function WriteRefused({
  error,
  title,
  sentence,
  configuration,
  unmapped,
  verb,
  kept,
}: {
  error: unknown;
  title: string;
  sentence: string;
  /** `writeMeaning` said configuration (401, 403); otherwise the write was refused for what it held. */
  configuration: boolean;
  unmapped: readonly ErrorDetail[];
  /** What the person does from here again: "create", "save". */
  verb: string;
  /** What is kept as a draft, with its verb: "Your product is", "Your changes are". */
  kept: string;
}) {
  if (configuration) {
    const failure = classifyApiError(error);
    const ours = failure.type === 'configuration' && failure.by === 'server';
    return (
      <Alert color="red" title={title} role="alert">
        <Text size="sm">
          {sentence} {ours ? `Reload the page (and sign in again if asked), then ${verb} from here. ` : ''}
          {kept} kept as a draft.
        </Text>
      </Alert>
    );
  }
  return (
    <Alert color="red" title={title} role="alert">
      <Stack gap={4}>
        <Text size="sm">
          {sentence} The fields it named are marked; {kept.toLowerCase()} kept as a draft.
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
