/**
 * What the editor shows after a failed create. The words come from the one translator
 * (`explainFailure`, src/lib/api-error-class.ts) and what the answer means from `writeMeaning`, the same
 * table the import follows: no clear answer leaves the outcome unknown, so Create waits for a
 * confirmation; an answer that says it was not processed (429, 503 with Retry-After) means nothing was
 * created and Create may be pressed again once the wait has passed.
 */
import { Alert, Button, Checkbox, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { ErrorDetail } from '@/contract/site-api';
import { failureSentence } from '@/lib/api-error-class';
import { explainWriteFailure, writeMeaning } from '@/lib/write-meaning';
import { WriteRefused } from './write-refused';

export function CreateFailure({ error, unmapped, onRetry }: { error: unknown; unmapped: readonly ErrorDetail[]; onRetry: () => void }) {
  const [checked, setChecked] = useState(false);
  const text = explainWriteFailure(error);
  const sentence = failureSentence(text);
  const meaning = writeMeaning(error);
  if (meaning.type === 'not-processed') {
    const wait = meaning.afterMs === null ? 'in a moment' : `in ${Math.max(1, Math.ceil(meaning.afterMs / 1000))} s`;
    return (
      <Alert color="yellow" title={text.title} role="alert">
        <Text size="sm">
          {sentence} Press Create again {wait}; your product is kept as a draft.
        </Text>
      </Alert>
    );
  }
  if (meaning.type === 'unknown') {
    return (
      <Alert color="orange" title={text.title} role="alert">
        <Stack gap="xs">
          <Text size="sm">
            {sentence} Your product is kept as a draft in this browser. Before trying again, check the site's catalogue for it, so it is not
            created twice. Create stays off until you confirm.
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
  return (
    <WriteRefused
      error={error}
      title={text.title}
      sentence={sentence}
      configuration={meaning.type === 'configuration'}
      unmapped={unmapped}
      verb="create"
      kept="Your product is"
    />
  );
}
