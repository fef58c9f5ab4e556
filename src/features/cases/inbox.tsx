/**
 * A form's inbox on the Cases page: pick a form, filter by received days and by the form's fields, and go
 * through its cases newest first, a page of the platform's list at a time. Everything that names the list
 * is in the address (inbox-address.ts), so Back, a reload and a shared link open the same filtered inbox.
 */
import { Button, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useQueries } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import type { CaseFilter } from '@/contract/case-list';
import type { FormCase } from '@/contract/site-api';
import { explainFailure } from '@/lib/api-error-class';
import { ListEnvelopeError, listEnvelopeOf, type CaseListPage } from '@/lib/case-list-reader';
import { pathTo, withQuery } from '@/lib/paths';
import { useLocation, useNavigate } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import hidden from '@/lib/visually-hidden.module.css';
import { ErrorPanel } from './error-panel';
import { inboxFilter, inboxHref, inboxQuery, isFiltered, readInboxAddress, type InboxAddress } from './inbox-address';
import { inboxColumns, propertiesOf, type FormProfile } from './inbox-columns';
import { FormPicker, InboxFilters } from './inbox-filters';
import { InboxList } from './inbox-list';
import { formCasesQueryOptions, INBOX_PAGE_SIZE, pageOfRow } from './inbox-query';
import classes from './cases.module.css';

export function Inbox() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const { site } = useSite();
  const inbox = useMemo(() => readInboxAddress(search), [search]);
  const profile = inbox ? site.forms?.[inbox.form] : undefined;
  const go = (next: InboxAddress) => navigate(inboxHref(next));
  return (
    <Stack gap="md" component="section" aria-labelledby="inbox-heading">
      <Title order={2} id="inbox-heading" size="h3">
        Inbox
      </Title>
      <FormPicker site={site} form={inbox?.form ?? ''} onPick={(form) => go({ form, from: null, to: null, where: {}, at: 0 })} />
      {inbox ? (
        // A new form or filter is a new list: its rows, position and pages start afresh.
        <InboxResults key={`${inbox.form}:${JSON.stringify(inboxFilter(inbox) ?? null)}`} inbox={inbox} profile={profile} />
      ) : (
        <Text className={classes.muted}>Pick a form to see its cases, newest first.</Text>
      )}
    </Stack>
  );
}

/** The furthest row known: the total where the envelope has one, else what the pages so far show. */
function rowCount(pages: readonly (CaseListPage | undefined)[]): number {
  let count = 0;
  for (const page of pages) {
    if (!page) continue;
    if (page.total !== null) return page.total;
    count = Math.max(count, (page.page - 1) * page.perPage + page.cases.length + (page.hasMore ? 1 : 0));
  }
  return count;
}

function InboxResults({ inbox, profile }: { inbox: InboxAddress; profile: FormProfile | undefined }) {
  const { site } = useSite();
  const navigate = useNavigate();
  const envelope = listEnvelopeOf(site);
  const filter = useMemo(() => inboxFilter(inbox), [inbox]);
  const [range, setRange] = useState<[number, number]>([inbox.at, inbox.at]);
  // Page 1 always (its total sizes the list), and the pages of the rows on screen: no more.
  const pages = useMemo(() => [...new Set([1, pageOfRow(range[0]), pageOfRow(range[1])])], [range]);
  const results = useQueries({ queries: pages.map((page) => formCasesQueryOptions(inbox.form, filter, page, envelope)) });
  const loaded = results.map((result) => result.data);
  const first = results[0];
  const count = rowCount(loaded);
  const rowAt = (index: number): FormCase | undefined => {
    const at = pages.indexOf(pageOfRow(index));
    return at < 0 ? undefined : loaded[at]?.cases[index % INBOX_PAGE_SIZE];
  };
  const sample = first?.data?.cases;
  const columns = useMemo(() => inboxColumns(profile, sample ?? []), [profile, sample]);
  const fields = useMemo(() => {
    const keys = new Set<string>(['name', 'email', ...Object.keys(profile?.fields ?? {})]);
    for (const record of sample ?? []) for (const key of Object.keys(propertiesOf(record))) keys.add(key);
    return [...keys];
  }, [profile, sample]);
  const onRange = useCallback(
    (start: number, end: number) => {
      setRange((current) =>
        pageOfRow(current[0]) === pageOfRow(start) && pageOfRow(current[1]) === pageOfRow(end) ? current : [start, end],
      );
    },
    [setRange],
  );
  const hrefOf = useCallback(
    (index: number, id: string) => withQuery(pathTo('case', { form: inbox.form, id }), inboxQuery({ ...inbox, at: index })),
    [inbox],
  );
  // Opening a row first writes its position into the inbox's own address, so Back returns to it.
  const onOpen = useCallback((index: number) => navigate(inboxHref({ ...inbox, at: index }), { replace: true }), [inbox, navigate]);
  const change = (next: { from: string | null; to: string | null; where: CaseFilter }) => navigate(inboxHref({ ...inbox, ...next, at: 0 }));
  const filtered = isFiltered(inbox);
  const failed = results.find((result) => result.isError);
  const formName = profile?.name ?? `form ${inbox.form}`;

  return (
    <Stack gap="sm">
      <InboxFilters profile={profile} fields={fields} from={inbox.from} to={inbox.to} where={inbox.where} onChange={change} />
      {failed?.error && (
        <ErrorPanel
          view={
            failed.error instanceof ListEnvelopeError
              ? { ...explainFailure(failed.error, { kind: 'list', form: inbox.form }), message: failed.error.message, said: null }
              : explainFailure(failed.error, { kind: 'list', form: inbox.form })
          }
          retrying={failed.isFetching}
          onRetry={() => void failed.refetch()}
          raw={failed.error instanceof ListEnvelopeError ? failed.error.raw : undefined}
        />
      )}
      {first?.isPending && (
        <Stack gap="xs" aria-busy="true">
          <span role="status" className={hidden.visuallyHidden}>
            Loading the cases of {formName}…
          </span>
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} height={36} />
          ))}
        </Stack>
      )}
      {first?.data?.noCases &&
        (filtered ? (
          <Stack gap="xs" align="flex-start" role="status">
            <Text fw={600}>No cases match these filters</Text>
            <Text size="sm" className={classes.muted}>
              {formName[0]?.toUpperCase()}
              {formName.slice(1)} has no case received in this range with these fields.
            </Text>
            <Button variant="default" onClick={() => change({ from: null, to: null, where: {} })}>
              Clear the filters
            </Button>
          </Stack>
        ) : (
          <Stack gap={4} role="status">
            <Text fw={600}>No cases yet</Text>
            <Text size="sm" className={classes.muted}>
              The platform says {formName} does not contain any cases.
            </Text>
          </Stack>
        ))}
      {first?.data && !first.data.noCases && (
        <>
          <Text size="sm" role="status" className={classes.muted}>
            {first.data.total !== null ? `${first.data.total.toLocaleString()} ${first.data.total === 1 ? 'case' : 'cases'}` : 'Cases'}
            {filtered ? ' matching the filters' : ''}, newest first
          </Text>
          <div style={{ ['--inbox-columns' as string]: String(columns.length) }}>
            <InboxList
              form={inbox.form}
              count={count}
              rowAt={rowAt}
              columns={columns}
              hrefOf={hrefOf}
              initialIndex={inbox.at}
              onRange={onRange}
              onOpen={onOpen}
              label={`Cases of ${formName}`}
            />
          </div>
        </>
      )}
    </Stack>
  );
}
