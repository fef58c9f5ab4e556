import { Stack, Text } from '@mantine/core';
import { useMemo } from 'react';
import { JsonBlock } from '@/lib/json-block';
import { Revealed } from './revealed-text';
import classes from './cases.module.css';

/** Longer JSON scrolls in its own box, so the page stays short (a 200 KB field would be metres of text). */
const LONG_JSON = 20_000;

/** The case as the platform sent it, indented; text only, never markup. */
export function RawJsonView({ getJson }: { getJson: () => string }) {
  const json = useMemo(() => getJson(), [getJson]);
  return (
    <Stack gap="xs">
      <Text size="sm" className={classes.muted}>
        The JSON the platform returned, re-indented for reading: keys, text and every digit exactly as it sent them.
      </Text>
      <JsonBlock json={json} label="The case as JSON" maxHeight={json.length > LONG_JSON ? '70vh' : undefined}>
        <Revealed text={json} />
      </JsonBlock>
    </Stack>
  );
}
