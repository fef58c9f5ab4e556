/** The import's counts: products, ready, with problems, and once started, each outcome. */
import { Group, Text } from '@mantine/core';
import type { Counts } from './outcomes';

export function ImportSummary({ counts, started }: { counts: Counts; started: boolean }) {
  return (
    <Group gap="lg" role="status" aria-label="Import summary">
      <Text size="sm">
        <b>{counts.products}</b> {counts.products === 1 ? 'product' : 'products'}
      </Text>
      <Text size="sm" c="blue">
        <b>{counts.ready}</b> ready
        {counts.updates > 0 && ` (${counts.ready - counts.updates} new, ${counts.updates} ${counts.updates === 1 ? 'update' : 'updates'})`}
      </Text>
      {counts.unchanged > 0 && (
        <Text size="sm" c="dimmed">
          <b>{counts.unchanged}</b> unchanged
        </Text>
      )}
      <Text size="sm" c="red">
        <b>{counts.problems}</b> with problems
      </Text>
      {started && (
        <>
          <Text size="sm" c="green">
            <b>{counts.created}</b> created
          </Text>
          <Text size="sm" c="green">
            <b>{counts.updated}</b> updated
          </Text>
          {counts.conflict > 0 && (
            <Text size="sm" c="orange">
              <b>{counts.conflict}</b> changed on the platform since the dry run
            </Text>
          )}
          <Text size="sm" c="red">
            <b>{counts.rejected}</b> rejected
          </Text>
          <Text size="sm" c="orange">
            <b>{counts.unknown}</b> outcome unknown
          </Text>
          <Text size="sm" c="dimmed">
            <b>{counts.skipped}</b> skipped
          </Text>
        </>
      )}
    </Group>
  );
}
