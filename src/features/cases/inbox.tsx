/**
 * A form's inbox, its own page (`/cases/21`) and its own chunk, loaded when a person opens it (never with
 * Cases): pick a form, filter by received days, by the form's fields and by the team's work, select rows
 * and work them in bulk, export the filtered list, and go through the cases newest first. Everything that
 * names the list is in the address (inbox-address.ts), so Back, a reload and a shared link open the same
 * filtered inbox at the same row.
 */
import { Anchor, Button, Group, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import type { CaseFilter } from '@/contract/case-list';
import { TEAM_FILTER_LABELS, type TeamFilter } from '@/contract/case-work';
import { capabilitiesOf } from '@/contract/site-info';
import { explainFailure } from '@/lib/api-error-class';
import { ListEnvelopeError } from '@/lib/case-list-reader';
import { ownApiFailureText } from '@/lib/own-api-failure';
import { pathTo, withQuery } from '@/lib/paths';
import { Link, useLocation, useNavigate, usePathParams } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import hidden from '@/lib/visually-hidden.module.css';
import { ErrorPanel } from './error-panel';
import { listFailureWords } from './list-failure';
import { freshInbox, inboxFilter, inboxHref, inboxQuery, isFiltered, readInboxAddress, type InboxAddress } from './inbox-address';
import { InboxActions } from './inbox-actions';
import { inboxColumns, propertiesOf, type FormProfile } from './inbox-columns';
import { InboxExport } from './inbox-export';
import { FormPicker, InboxFilters, TeamFilters } from './inbox-filters';
import { InboxList } from './inbox-list';
import { CASE_WORK_LIMIT, useSelection } from './inbox-selection';
import { INBOX_PAGE_SIZE, pageOfRow } from './inbox-query';
import { useInboxRows } from './inbox-rows';
import classes from './cases.module.css';

export function InboxPage() {
  const params = usePathParams('inbox');
  const { search } = useLocation();
  const navigate = useNavigate();
  const { site } = useSite();
  const inbox = useMemo(() => (params ? readInboxAddress(search, params.form) : null), [search, params]);
  const profile = inbox ? site.forms?.[inbox.form] : undefined;
  const formName = profile?.name ?? (inbox ? `Form ${inbox.form}` : 'Inbox');
  return (
    <Stack gap="md">
      <title>{`${formName} · Inbox · site-admin`}</title>
      <Stack gap={4}>
        <Anchor component={Link} to={pathTo('cases')} size="sm">
          Cases
        </Anchor>
        <Title order={1}>{profile?.name ? `Inbox: ${profile.name}` : `Inbox of ${formName.toLowerCase()}`}</Title>
      </Stack>
      <Group gap="sm" align="flex-end" justify="space-between">
        <FormPicker site={site} form={inbox?.form ?? ''} onPick={(form) => navigate(inboxHref(freshInbox(form)))} />
        {inbox && capabilitiesOf(site).includes('export') && <InboxExport site={site.id} inbox={inbox} />}
      </Group>
      {inbox ? (
        // A new form or filter is a new list: its rows, selection and position start afresh.
        <InboxResults
          key={`${inbox.form}:${JSON.stringify(inboxFilter(inbox) ?? null)}:${inbox.team.join(',')}`}
          inbox={inbox}
          profile={profile}
          formName={formName}
        />
      ) : (
        <ErrorPanel
          view={{
            title: 'This link cannot point to an inbox',
            message: 'Its form identifier is not one a form can have (letters, digits, _ and -), so nothing was sent.',
            said: null,
            details: [],
            canRetry: false,
          }}
          retrying={false}
          onRetry={() => undefined}
        />
      )}
    </Stack>
  );
}

function InboxResults({ inbox, profile, formName }: { inbox: InboxAddress; profile: FormProfile | undefined; formName: string }) {
  const navigate = useNavigate();
  const [range, setRange] = useState<readonly [number, number]>([inbox.at, inbox.at]);
  const rows = useInboxRows(inbox, range);
  const { first, failed, team } = rows;
  const selection = useSelection(rows);
  const sample = first?.cases;
  const columns = useMemo(() => inboxColumns(profile, sample ?? []), [profile, sample]);
  const fields = useMemo(() => {
    const keys = new Set<string>(['name', 'email', ...Object.keys(profile?.fields ?? {})]);
    for (const record of sample ?? []) for (const key of Object.keys(propertiesOf(record))) keys.add(key);
    return [...keys];
  }, [profile, sample]);
  const onRange = useCallback((start: number, end: number) => {
    setRange((current) =>
      pageOfRow(current[0]) === pageOfRow(start) && pageOfRow(current[1]) === pageOfRow(end) ? current : [start, end],
    );
  }, []);
  const hrefOf = useCallback(
    (index: number, id: string) => withQuery(pathTo('case', { form: inbox.form, id }), inboxQuery({ ...inbox, at: index })),
    [inbox],
  );
  // Opening a row first writes its position into the inbox's own address, so Back returns to it.
  const onOpen = useCallback((index: number) => navigate(inboxHref({ ...inbox, at: index }), { replace: true }), [inbox, navigate]);
  const change = (next: { from: string | null; to: string | null; where: CaseFilter }) =>
    navigate(inboxHref({ ...inbox, ...next, read: 1, at: 0 }));
  const changeTeam = (next: TeamFilter[]) => navigate(inboxHref({ ...inbox, team: next, read: 1, at: 0 }));
  const filtered = isFiltered(inbox);

  return (
    <Stack gap="sm">
      <InboxFilters profile={profile} fields={fields} from={inbox.from} to={inbox.to} where={inbox.where} onChange={change} />
      <TeamFilters team={inbox.team} onChange={changeTeam} />
      {failed?.error && (
        <ErrorPanel
          view={
            failed.error instanceof ListEnvelopeError
              ? {
                  ...explainFailure(failed.error, { kind: 'other', textOf: listFailureWords(inbox.form) }),
                  message: failed.error.message,
                  said: null,
                }
              : explainFailure(failed.error, { kind: 'other', textOf: listFailureWords(inbox.form) })
          }
          retrying={failed.isFetching}
          onRetry={() => void failed.refetch()}
          raw={failed.error instanceof ListEnvelopeError ? failed.error.raw : undefined}
        />
      )}
      {rows.workFailed?.error && (
        <Text role="alert" size="sm">
          The team’s status and assignees could not be read: {ownApiFailureText(rows.workFailed.error)}{' '}
          <Anchor component="button" type="button" size="sm" onClick={() => void rows.workFailed?.refetch()}>
            Try again
          </Anchor>
        </Text>
      )}
      {rows.firstPending && (
        <Stack gap="xs" aria-busy="true">
          <span role="status" className={hidden.visuallyHidden}>
            Loading the cases of {formName}…
          </span>
          {Array.from({ length: 6 }, (_, i) => (
            <Skeleton key={i} height={36} />
          ))}
        </Stack>
      )}
      {first?.noCases &&
        (filtered ? (
          <Stack gap="xs" align="flex-start" role="status">
            <Text fw={600}>No cases match these filters</Text>
            <Text size="sm" className={classes.muted}>
              {formName} has no case received in this range with these fields.
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
      {first && !first.noCases && (
        <>
          <Text size="sm" role="status" className={classes.muted}>
            {team ? teamSummary(team, rows.count, inbox.team) : listSummary(first.total, filtered)}
          </Text>
          {team?.more && (
            <Group gap="sm">
              <Button
                variant="default"
                size="xs"
                loading={team.reading}
                onClick={() =>
                  navigate(inboxHref({ ...inbox, read: inbox.read + 1, at: rows.count > 0 ? rows.count - 1 : 0 }), { replace: true })
                }
              >
                Read the next {INBOX_PAGE_SIZE} cases
              </Button>
            </Group>
          )}
          <InboxActions form={inbox.form} selected={selection.selected} onClear={selection.clear} limit={CASE_WORK_LIMIT} />
          <div style={{ ['--inbox-columns' as string]: String(columns.length) }}>
            <InboxList
              count={rows.count}
              rowAt={rows.rowAt}
              columns={columns}
              hrefOf={hrefOf}
              initialIndex={inbox.at}
              onRange={onRange}
              onOpen={onOpen}
              selected={selection.selected}
              onToggle={selection.toggle}
              allState={selection.allState}
              allLabel={`Select all ${rows.loaded.length.toLocaleString()} cases read`}
              onToggleAll={selection.toggleAll}
              label={`Cases of ${profile?.name ?? `form ${inbox.form}`}`}
            />
          </div>
        </>
      )}
    </Stack>
  );
}

function listSummary(total: number | null, filtered: boolean): string {
  const counted = total !== null ? `${total.toLocaleString()} ${total === 1 ? 'case' : 'cases'}` : 'Cases';
  return `${counted}${filtered ? ' matching the filters' : ''}, newest first`;
}

/** What the team filters did to the cases read: the platform cannot apply them, so the page says how many it hid. */
function teamSummary(team: { read: number; hidden: number; more: boolean }, shown: number, filters: readonly TeamFilter[]): string {
  const names = filters.map((filter) => TEAM_FILTER_LABELS[filter]).join(', ');
  const cases = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'case' : 'cases'}`;
  return (
    `${cases(shown)} shown, newest first: of the ${cases(team.read)} read, ${team.hidden.toLocaleString()} hidden by ${names}` +
    (team.more ? '. The platform has more.' : '.')
  );
}
