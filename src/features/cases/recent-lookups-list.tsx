import { Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { pathTo } from '@/lib/paths';
import { Link } from '@/lib/router';
import type { RecentLookup } from './recent-lookups';
import { Revealed } from './revealed-text';
import classes from './cases.module.css';

interface RecentLookupsListProps {
  lookups: readonly RecentLookup[];
  onClear: () => void;
}

export function RecentLookupsList({ lookups, onClear }: RecentLookupsListProps) {
  return (
    <Stack gap="xs" component="section" aria-labelledby="recent-lookups-title">
      <Group justify="space-between" align="center" gap="xs">
        <Title order={2} size="h4" id="recent-lookups-title">
          Recent lookups
        </Title>
        {lookups.length > 0 && (
          <Button variant="subtle" size="compact-sm" onClick={onClear} aria-label="Clear recent lookups">
            Clear
          </Button>
        )}
      </Group>
      {lookups.length === 0 ? (
        <Text size="sm" className={classes.muted}>
          Cases you open are listed here, in this browser only.
        </Text>
      ) : (
        <Stack component="ol" gap={6} className={classes.plainList}>
          {lookups.map((lookup) => (
            <li key={`${lookup.form}/${lookup.id}`}>
              <Anchor component={Link} to={pathTo('case', { form: lookup.form, id: lookup.id })} className={classes.link} size="sm">
                <Revealed text={lookup.title ?? `Form ${lookup.form}`} />: case {lookup.id}
              </Anchor>
              <Text size="xs" className={classes.muted}>
                form {lookup.form}
              </Text>
            </li>
          ))}
        </Stack>
      )}
    </Stack>
  );
}
