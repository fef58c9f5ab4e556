import { Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { runningSentence, type ImportSummary } from '@/contract/imports';

/** The site's open imports, to open one (when there are several). */
export function OpenImports({ imports, onOpen }: { imports: readonly ImportSummary[]; onOpen: (id: string) => void }) {
  const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Title order={2} size="h4">
          Imports in progress on this site
        </Title>
        {imports.map((one) => (
          <Group key={one.id} justify="space-between" wrap="wrap" role="group" aria-label={`Import ${one.fileName}`}>
            <Text size="sm">
              <b>{one.fileName}</b>, started by {one.startedBy} on {when.format(one.createdAt)}: {one.counts.created} created,{' '}
              {one.counts.rejected} rejected, {one.counts.unknown} outcome unknown, {one.counts.pending} not sent
              {one.runner ? ` · ${runningSentence(one.runner)}` : ''}
            </Text>
            <Button size="xs" variant="light" onClick={() => onOpen(one.id)}>
              Open
            </Button>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}
