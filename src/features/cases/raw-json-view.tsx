import { Stack, Text } from '@mantine/core';
import { JsonBlock } from '@/lib/json-block';
import classes from './cases.module.css';

/** The case as the platform sent it, indented; text only, never markup. */
export function RawJsonView({ json }: { json: string }) {
  return (
    <Stack gap="xs">
      <Text size="sm" className={classes.muted}>
        The JSON the platform returned, re-indented for reading: keys, text and every digit exactly as it sent them.
      </Text>
      <JsonBlock json={json} label="The case as JSON" />
    </Stack>
  );
}
