/**
 * Previous and next through the inbox a case was opened from: the case's address carries the inbox's
 * query and the row's position (inbox-address.ts), and the neighbours come from the same pages of the
 * list the inbox read (from the cache when it just did).
 */
import { Anchor, Button, Group, Text } from '@mantine/core';
import { pathTo, withQuery } from '@/lib/paths';
import { Link } from '@/lib/router';
import { inboxHref, inboxQuery, readInboxAddress, type InboxAddress } from './inbox-address';
import { useInboxRows } from './inbox-rows';
import classes from './inbox.module.css';

/** The steps of the inbox `search` names (the case's query), or nothing when it names none. */
export function CaseSteps({ search, id }: { search: string; id: string }) {
  const inbox = readInboxAddress(search);
  return inbox ? <Steps inbox={inbox} id={id} /> : null;
}

function Steps({ inbox, id }: { inbox: InboxAddress; id: string }) {
  const { at } = inbox;
  // The same rows as the inbox had (from the cache when it just read them), with its team filters.
  const rows = useInboxRows(inbox, [Math.max(at - 1, 0), at + 1]);
  const step = (index: number) => {
    const row = index < 0 ? undefined : rows.rowAt(index);
    return row ? withQuery(pathTo('case', { form: inbox.form, id: row.id }), inboxQuery({ ...inbox, at: index })) : null;
  };
  const previous = step(at - 1);
  const next = step(at + 1);
  const loading = rows.firstPending || (rows.team?.reading ?? false);
  const total = rows.team ? (loading ? null : rows.count) : (rows.first?.total ?? null);
  return (
    <nav aria-label="Cases of the inbox" className={classes.steps}>
      <Anchor component={Link} to={inboxHref(inbox)} size="sm">
        Back to the inbox
      </Anchor>
      <Text size="sm" aria-live="polite">
        Case {id}: {at + 1} of {total !== null ? total.toLocaleString() : loading ? '…' : 'the list'}
      </Text>
      <Group gap="xs">
        {previous ? (
          <Button component={Link} to={previous} variant="default" size="xs">
            Previous
          </Button>
        ) : (
          <Button variant="default" size="xs" disabled>
            Previous
          </Button>
        )}
        {next ? (
          <Button component={Link} to={next} variant="default" size="xs">
            Next
          </Button>
        ) : (
          <Button variant="default" size="xs" disabled loading={loading && at >= 0}>
            Next
          </Button>
        )}
      </Group>
    </nav>
  );
}
