import { Code, Stack, Text } from '@mantine/core';
import classes from './cases.module.css';

/** The record as the platform sent it, indented; text only, never markup. */
export function RawJsonView({ json }: { json: string }) {
  return (
    <Stack gap="xs">
      <Text size="sm" className={classes.muted}>
        The JSON object the platform returned, with its keys in their original order, indented for reading.
      </Text>
      <Code block className={classes.rawJson}>
        {json}
      </Code>
    </Stack>
  );
}
