/**
 * Previous and next through the inbox a case was opened from: the case's address carries the inbox's
 * query and the row's position (inbox-address.ts), and the neighbours come from the same pages of the
 * list the inbox read (from the cache when it just did).
 */
import { Anchor, Button, Group, Text } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import type { FormCase } from '@/contract/site-api';
import { listEnvelopeOf } from '@/lib/case-list-reader';
import { pathTo, withQuery } from '@/lib/paths';
import { Link } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import { inboxFilter, inboxHref, inboxQuery, readInboxAddress, type InboxAddress } from './inbox-address';
import { caseIdOf } from './inbox-columns';
import { formCasesQueryOptions, INBOX_PAGE_SIZE, pageOfRow } from './inbox-query';
import classes from './inbox.module.css';

/** The steps of the inbox `search` names (the case's query), or nothing when it names none. */
export function CaseSteps({ search, id }: { search: string; id: string }) {
  const inbox = readInboxAddress(search);
  return inbox ? <Steps inbox={inbox} id={id} /> : null;
}

function Steps({ inbox, id }: { inbox: InboxAddress; id: string }) {
  const { site } = useSite();
  const { at } = inbox;
  const filter = inboxFilter(inbox);
  const pages = [...new Set([pageOfRow(Math.max(at - 1, 0)), pageOfRow(at + 1)])];
  const results = useQueries({ queries: pages.map((page) => formCasesQueryOptions(inbox.form, filter, page, listEnvelopeOf(site))) });
  const rowAt = (index: number): FormCase | undefined => {
    if (index < 0) return undefined;
    return results[pages.indexOf(pageOfRow(index))]?.data?.cases[index % INBOX_PAGE_SIZE];
  };
  const total = results.find((result) => result.data)?.data?.total ?? null;
  const step = (index: number) => {
    const record = rowAt(index);
    const stepId = record ? caseIdOf(record) : null;
    return stepId === null ? null : withQuery(pathTo('case', { form: inbox.form, id: stepId }), inboxQuery({ ...inbox, at: index }));
  };
  const previous = step(at - 1);
  const next = step(at + 1);
  const loading = results.some((result) => result.isPending);
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
