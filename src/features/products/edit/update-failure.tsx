/**
 * What the editor shows after a failed save of a correction: the create's handling and words
 * (create-outcome.tsx), by the same table (`writeMeaning`), for an update. One difference follows from the
 * update carrying If-Match: after an answer that leaves the outcome unknown, the product is read again:
 * unchanged, nothing arrived and Save may be pressed again; changed, the conflict view shows what is there
 * (the person's own change among it, if it arrived). A save is never sent again blind.
 */
import { Alert, Button, Stack, Text } from '@mantine/core';
import type { ErrorDetail } from '@/contract/site-api';
import { failureSentence } from '@/lib/api-error-class';
import { explainWriteFailure, writeMeaning } from '@/lib/write-meaning';
import { WriteRefused } from '../write-refused';

export function UpdateFailure({
  error,
  unmapped,
  onRetry,
  onCheck,
  checking,
}: {
  error: unknown;
  unmapped: readonly ErrorDetail[];
  /** Nothing was sent (not processed): Save may be pressed again. */
  onRetry: () => void;
  /** The outcome is unknown: read the product again to find out. */
  onCheck: () => void;
  checking: boolean;
}) {
  const text = explainWriteFailure(error, 'update');
  const sentence = failureSentence(text);
  const meaning = writeMeaning(error);
  if (meaning.type === 'not-processed') {
    const wait = meaning.afterMs === null ? 'in a moment' : `in ${Math.max(1, Math.ceil(meaning.afterMs / 1000))} s`;
    return (
      <Alert color="yellow" title={text.title} role="alert">
        <Stack gap="xs">
          <Text size="sm">
            {sentence} Press Save changes again {wait}; your changes are kept as a draft.
          </Text>
          <Button w="fit-content" variant="light" color="yellow" onClick={onRetry}>
            Let me save again
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (meaning.type === 'unknown') {
    return (
      <Alert color="orange" title={text.title} role="alert">
        <Stack gap="xs">
          <Text size="sm">
            {sentence} Your changes are kept as a draft in this browser. Save stays off until the product is read again: if it is as you
            opened it, nothing arrived and you can save again; if it changed, you see what is there now, your own changes among it if they
            arrived.
          </Text>
          <Button w="fit-content" variant="light" color="orange" loading={checking} onClick={onCheck}>
            Read the product again
          </Button>
        </Stack>
      </Alert>
    );
  }
  return (
    <WriteRefused
      error={error}
      title={text.title}
      sentence={sentence}
      configuration={meaning.type === 'configuration'}
      unmapped={unmapped}
      verb="save"
      kept="Your changes are"
    />
  );
}
