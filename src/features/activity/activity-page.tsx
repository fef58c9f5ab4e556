/**
 * The Activity page: the activity record, newest first. Owners see everyone's, others their own (the
 * server decides). Filters by person (owners), site, action, outcome, time and search (a product's slug or
 * name, a case id), kept in the page's address so a filtered view can be shared or reloaded; the list loads
 * a page at a time as it is scrolled, and only the rows on screen are rendered, so a million entries scroll
 * as fast as fifty. An entry opens its details (for a create, the body sent and the platform's answer, and
 * the created product; for a lookup, the case; for a product update, its diff and "Revert this change"). Export gives what the filter shows as CSV or JSON lines,
 * straight from the server.
 */
import { Alert, Anchor, Badge, Button, Group, Loader, Select, Stack, Text, TextInput, Title } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useMemo, useRef, useState, type ReactNode } from 'react';
import { ACTIVITY_ACTIONS, ACTIVITY_PATHS, type ActivityEntry, type ActivityFilter } from '@/contract/activity';
import { actorName } from '@/contract/access';
import { capabilitiesOf } from '@/contract/site-info';
import { classifyApiError } from '@/lib/api-error';
import { describeFailure } from '@/lib/api-error-class';
import { DateTime } from '@/lib/date-time';
import { DetailsDrawer } from '@/lib/details-drawer';
import { peopleQuery } from '@/lib/people-query';
import { reindentJson } from '@/lib/exact-json';
import { JsonBlock } from '@/lib/json-block';
import { pathTo, withQuery, type Href } from '@/lib/paths';
import { Link, useLocation, useNavigate } from '@/lib/router';
import { siteHref, useSite } from '@/lib/site-context';
import { activityEntryQuery, activityPagesQuery, chainQuery } from './activity-api';
import classes from './activity-page.module.css';
import { UpdateDetails } from './update-details';

const ROW_HEIGHT = 56;

const OUTCOMES = [
  'created',
  'updated',
  'rejected',
  'not-processed',
  'unknown',
  'sent',
  'found',
  'not-found',
  'refused',
  'failed',
  'ok',
  'problems',
];

const OUTCOME_COLORS: Record<string, string> = {
  created: 'teal',
  updated: 'teal',
  found: 'teal',
  ok: 'teal',
  sent: 'blue',
  rejected: 'orange',
  refused: 'orange',
  'not-found': 'gray',
  'not-processed': 'yellow',
  unknown: 'red',
  failed: 'red',
  problems: 'orange',
};

/** The filters as the page's address holds them: days as `yyyy-mm-dd`, the rest as the API takes them. */
const ADDRESS_KEYS = ['person', 'site', 'action', 'outcome', 'q', 'from', 'to'] as const;
type AddressKey = (typeof ADDRESS_KEYS)[number];
type AddressFilter = Partial<Record<AddressKey, string>>;

function readAddress(search: string): AddressFilter {
  const query = new URLSearchParams(search);
  const filter: AddressFilter = {};
  for (const key of ADDRESS_KEYS) {
    const value = query.get(key);
    if (value) filter[key] = value;
  }
  return filter;
}

/** The filter as query parameters, for the list and for the export. */
export function filterQuery(filter: ActivityFilter): URLSearchParams {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value !== undefined && value !== '') params.set(key, String(value));
  return params;
}

/** Midnight of a `yyyy-mm-dd` in the person's time zone, as epoch ms; undefined for an empty or odd one. */
function dayStart(value: string, plusDays = 0): number | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(value);
  if (!match) return undefined;
  return new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + plusDays).getTime();
}

function who(entry: ActivityEntry): string {
  return actorName(entry.actor);
}

function what(entry: ActivityEntry): string {
  const { target } = entry;
  // The team's work on cases: the case (or the form, for several at once), then what it became ("Done", a name).
  const outcome = target.name ? `: ${target.name}` : '';
  if (target.case) return `Form ${target.form ?? '?'}, case ${target.case}${outcome}`;
  if (target.form) return `Form ${target.form}${outcome}`;
  if (target.name || target.slug) return [target.name, target.slug && `(${target.slug})`].filter(Boolean).join(' ');
  return '';
}

const actionLabel = (action: string) => (ACTIVITY_ACTIONS as Record<string, string>)[action] ?? action;

const KEPT_LABELS: Record<string, string> = {
  body: 'Sent to the platform',
  answer: 'What the platform answered',
  // A product update: which product, the product as read just before it, and the update it reverts.
  product: 'Product id',
  before: 'The product before (as read just before the update)',
  reverts: 'Reverts entry',
  // The team's work on cases (a note's id and length: its text is never recorded).
  cases: 'Cases',
  count: 'How many cases',
  status: 'Status set to',
  assignee: 'Assigned to (null: nobody)',
  note: 'Note',
  length: 'Characters in the note',
  version: 'The note’s version',
};

/** What an entry kept, part by part: a body or an answer (JSON text, shown indented as it came), anything else as it is. */
function keptParts(detail: unknown): { label: string; json: string }[] {
  if (detail === null || detail === undefined) return [];
  if (typeof detail !== 'object' || Array.isArray(detail)) return [{ label: 'What the entry kept', json: JSON.stringify(detail, null, 2) }];
  return Object.entries(detail as Record<string, unknown>).map(([key, value]) => {
    let json = JSON.stringify(value, null, 2);
    // The text as it was sent or answered, re-indented without being re-read as numbers (exact-json).
    if (typeof value === 'string') json = reindentJson(value);
    return { label: KEPT_LABELS[key] ?? key, json };
  });
}

/** A page of `siteId` the person may open: inside the app on this site, else the other site's address. */
function SitePageLink({ siteId, to, children }: { siteId: string; to: Href; children: ReactNode }) {
  const { site, many } = useSite();
  if (siteId === site.id) {
    return (
      <Anchor component={Link} to={to}>
        {children}
      </Anchor>
    );
  }
  return <Anchor href={siteHref(siteId, to, many)}>{children}</Anchor>;
}

function EntryDetails({ seq, onClose }: { seq: number | null; onClose: () => void }) {
  const { site, sites } = useSite();
  const entry = useQuery(activityEntryQuery(seq));
  const data = entry.data;
  // Links only to a site the person may use (the sites the server listed for them).
  const entrySite = data?.siteId ? sites.find((one) => one.id === data.siteId) : undefined;
  return (
    <DetailsDrawer
      opened={seq !== null}
      onClose={onClose}
      title={seq === null ? '' : `Entry ${seq}`}
      loading={entry.isPending && seq !== null}
      failure={entry.error}
      what="the entry"
    >
      {data ? (
        <Stack gap="sm">
          <Text>
            <strong>{actionLabel(data.action)}</strong> by {who(data)}, <DateTime date={new Date(data.at)} />
          </Text>
          <Text size="sm">
            Site {data.siteId ?? '—'} · outcome {data.outcome}
            {data.status ? ` · status ${data.status}` : ''}
            {data.durationMs !== null ? ` · ${data.durationMs} ms` : ''}
          </Text>
          {data.target.case && data.target.form && entrySite && capabilitiesOf(entrySite).includes('lookup') ? (
            <SitePageLink siteId={entrySite.id} to={pathTo('case', { form: data.target.form, id: data.target.case })}>
              Open case {data.target.case} of form {data.target.form}
              {entrySite.id === site.id ? '' : ` on ${entrySite.name}`}
            </SitePageLink>
          ) : null}
          {data.action === 'product.create.outcome' && data.outcome === 'created' && entrySite ? (
            <SitePageLink siteId={entrySite.id} to={withQuery(pathTo('products'), new URLSearchParams({ product: String(data.seq) }))}>
              Open the created product{data.target.name ? ` ${data.target.name}` : ''}
              {entrySite.id === site.id ? '' : ` on ${entrySite.name}`}
            </SitePageLink>
          ) : null}
          {data.refersTo !== null ? <Text size="sm">Completes entry {data.refersTo}.</Text> : null}
          {data.action === 'product.update' ? <UpdateDetails seq={data.seq} /> : null}
          {data.action === 'product.update.outcome' && data.refersTo !== null ? <UpdateDetails seq={data.refersTo} /> : null}
          <Text size="xs" c="dimmed">
            Request {data.requestId ?? '—'} · from {data.address ?? '—'} · {data.userAgent ?? '—'}
          </Text>
          <Text size="xs" c="dimmed" style={{ wordBreak: 'break-all' }}>
            Hash {data.hash}
          </Text>
          {keptParts(data.detail).map((part) => (
            <Stack key={part.label} gap={4}>
              <Text size="sm" fw={600}>
                {part.label}
              </Text>
              <JsonBlock json={part.json} label={part.label} maxHeight="40vh" />
            </Stack>
          ))}
        </Stack>
      ) : null}
    </DetailsDrawer>
  );
}

function ChainBadge() {
  const chain = useQuery(chainQuery);
  if (chain.isPending)
    return (
      <Badge variant="light" color="gray">
        Checking the record…
      </Badge>
    );
  if (chain.isError)
    return (
      <Badge variant="light" color="gray">
        The record’s check could not run
      </Badge>
    );
  if (chain.data.ok) {
    return (
      <Badge variant="light" color="teal" data-testid="chain-state">
        Record verifies · {chain.data.entries.toLocaleString()} entries
      </Badge>
    );
  }
  return (
    <Alert color="red" title="The activity record does not verify" data-testid="chain-state">
      Entry {chain.data.brokenAt}: {chain.data.reason}. Entries from there on may have been changed outside site-admin.
    </Alert>
  );
}

/** Everyone an owner may pick, by name: the People page's list (the same query, so one load serves both). */
function usePeopleChoices(enabled: boolean, selected: string | undefined) {
  const people = useQuery({ ...peopleQuery, enabled });
  return useMemo(() => {
    const choices = (people.data?.people ?? [])
      .map((person) => ({ value: person.id, label: `${person.displayName} (${person.email})` }))
      .sort((a, b) => a.label.localeCompare(b.label));
    // A person the list no longer has (removed since) stays choosable from an address that names them.
    if (selected && !choices.some((choice) => choice.value === selected)) choices.unshift({ value: selected, label: selected });
    return { choices, loading: people.isPending && enabled, failed: people.isError };
  }, [people.data, people.isPending, people.isError, enabled, selected]);
}

export function ActivityPage() {
  const { sites, me } = useSite();
  const location = useLocation();
  const navigate = useNavigate();
  const [open, setOpen] = useState<number | null>(null);
  const everyone = me.kind === 'demo' || (me.kind === 'person' && me.managesPeople);
  // The filters live in the address (replaced as they change, so Back leaves the page rather than undoing a filter).
  const address = useMemo(() => readAddress(location.search), [location.search]);
  const setFilter = (key: AddressKey, value: string | null) => {
    const next = new URLSearchParams();
    for (const known of ADDRESS_KEYS) {
      const kept = known === key ? value : address[known];
      if (kept) next.set(known, kept);
    }
    navigate(withQuery(pathTo('activity'), next), { replace: true });
  };
  const people = usePeopleChoices(me.kind === 'person' && me.managesPeople, address.person);

  const filter: ActivityFilter = useMemo(
    () => ({
      // Only an owner picks a person; the server shows everyone else their own whatever the address says.
      person: everyone ? address.person : undefined,
      q: address.q?.trim() || undefined,
      site: address.site,
      action: address.action,
      outcome: address.outcome,
      from: dayStart(address.from ?? ''),
      to: dayStart(address.to ?? '', 1),
    }),
    [address, everyone],
  );
  const params = filterQuery(filter);

  const pages = useInfiniteQuery(activityPagesQuery(params));
  const entries = useMemo(() => pages.data?.pages.flatMap((page) => page.entries) ?? [], [pages.data]);

  const scroller = useRef<HTMLDivElement>(null);
  // The virtualizer's functions change as it scrolls; nothing here memoises them.
  // eslint-disable-next-line react-hooks/incompatible-library
  const virtualizer = useVirtualizer({
    count: entries.length,
    getScrollElement: () => scroller.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 8,
  });
  const items = virtualizer.getVirtualItems();
  const lastIndex = items.at(-1)?.index ?? -1;
  const { hasNextPage, isFetchingNextPage, fetchNextPage } = pages;
  useEffect(() => {
    // Near the end of what is loaded: the next page.
    if (hasNextPage && !isFetchingNextPage && lastIndex >= entries.length - 10) void fetchNextPage();
  }, [lastIndex, entries.length, hasNextPage, isFetchingNextPage, fetchNextPage]);

  return (
    <Stack gap="md">
      <Group justify="space-between" align="flex-start">
        <Stack gap={4}>
          <Title order={1}>Activity</Title>
          <Text c="dimmed" size="sm">
            {everyone ? 'Everyone’s activity on every site: ' : 'Your own activity: '}
            products created and updated, cases looked up, sign-ins. Newest first.
          </Text>
        </Stack>
        <ChainBadge />
      </Group>
      <Group gap="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="Search"
          description="A product’s slug or name, or a case id"
          value={address.q ?? ''}
          onChange={(event) => setFilter('q', event.currentTarget.value)}
          w={{ base: '100%', sm: 260 }}
        />
        {me.kind === 'person' && me.managesPeople ? (
          <Select
            label="Person"
            placeholder={people.loading ? 'Loading people…' : people.failed ? 'People could not be loaded' : 'Everyone'}
            searchable
            clearable
            nothingFoundMessage="Nobody by that name"
            data={people.choices}
            value={address.person ?? null}
            onChange={(value) => setFilter('person', value)}
            // Wide enough for a name and an e-mail address.
            w={{ base: '100%', sm: 340 }}
          />
        ) : null}
        {sites.length > 1 ? (
          <Select
            label="Site"
            placeholder="Every site"
            clearable
            data={sites.map((s) => ({ value: s.id, label: s.name }))}
            value={address.site ?? null}
            onChange={(value) => setFilter('site', value)}
          />
        ) : null}
        <Select
          label="Action"
          placeholder="Every action"
          clearable
          data={Object.entries(ACTIVITY_ACTIONS).map(([value, label]) => ({ value, label }))}
          value={address.action ?? null}
          onChange={(value) => setFilter('action', value)}
        />
        <Select
          label="Outcome"
          placeholder="Any outcome"
          clearable
          data={OUTCOMES}
          value={address.outcome ?? null}
          onChange={(value) => setFilter('outcome', value)}
        />
        <TextInput label="From" type="date" value={address.from ?? ''} onChange={(event) => setFilter('from', event.currentTarget.value)} />
        <TextInput label="To" type="date" value={address.to ?? ''} onChange={(event) => setFilter('to', event.currentTarget.value)} />
      </Group>
      <Group gap="xs">
        <Button
          component="a"
          variant="default"
          size="xs"
          href={`${ACTIVITY_PATHS.export}?${new URLSearchParams([...params, ['format', 'csv']]).toString()}`}
          download
        >
          Export CSV
        </Button>
        <Button
          component="a"
          variant="default"
          size="xs"
          href={`${ACTIVITY_PATHS.export}?${new URLSearchParams([...params, ['format', 'jsonl']]).toString()}`}
          download
        >
          Export JSON lines
        </Button>
      </Group>
      {pages.isError ? (
        <Alert color="red" title="The activity could not be loaded" role="alert">
          {describeFailure(classifyApiError(pages.error))}
        </Alert>
      ) : null}
      {pages.isPending ? <Loader aria-label="Loading the activity" /> : null}
      {pages.isSuccess && entries.length === 0 ? <Text>Nothing matches these filters.</Text> : null}
      <div
        ref={scroller}
        className={classes.scroller}
        role="region"
        aria-label="Activity entries"
        // A box that scrolls must be reachable without a mouse (axe: scrollable-region-focusable).
        // eslint-disable-next-line jsx-a11y/no-noninteractive-tabindex
        tabIndex={0}
        hidden={entries.length === 0}
      >
        <ul className={classes.list} style={{ height: virtualizer.getTotalSize() }} aria-label="Entries">
          {items.map((item) => {
            const entry = entries[item.index];
            if (!entry) return null;
            return (
              <li key={entry.seq} className={classes.row} style={{ transform: `translateY(${item.start}px)`, height: ROW_HEIGHT }}>
                <button
                  type="button"
                  className={classes.entry}
                  // Named by what it shows (time, action, subject, who, site, number, outcome), in that
                  // order, so that a person who says what they see (voice control) reaches it.
                  onClick={() => setOpen(entry.seq)}
                >
                  <span className={classes.when}>
                    <DateTime date={new Date(entry.at)} />
                  </span>
                  <span className={classes.main}>
                    <Text span size="sm" fw={600}>
                      {actionLabel(entry.action)}
                    </Text>{' '}
                    <Text span size="sm">
                      {what(entry)}
                    </Text>
                    <Text size="xs" c="dimmed" truncate>
                      {/* On a phone the time goes here, not in a column of its own. */}
                      <span className={classes.whenInline}>
                        <DateTime date={new Date(entry.at)} /> ·{' '}
                      </span>
                      {who(entry)}
                      {entry.siteId ? ` · ${entry.siteId}` : ''} · #{entry.seq}
                    </Text>
                  </span>
                  <Badge variant="light" color={OUTCOME_COLORS[entry.outcome] ?? 'gray'} style={{ flexShrink: 0 }}>
                    {entry.outcome}
                    {entry.status ? ` ${entry.status}` : ''}
                  </Badge>
                </button>
              </li>
            );
          })}
        </ul>
      </div>
      {isFetchingNextPage ? <Loader size="sm" aria-label="Loading older entries" /> : null}
      <EntryDetails seq={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}
