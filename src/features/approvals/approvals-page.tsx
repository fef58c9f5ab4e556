/**
 * The Approvals page: the changes waiting for a second person (To approve: those the person may approve
 * now; Mine: those they asked for; All open; Closed), newest first, across every site the person may use;
 * each opens its own page. An owner of the site the page works on also finds the site's rule here, and
 * changes it; others read it in a sentence. The view is in the page's address (`?view=`).
 */
import { Alert, Anchor, Badge, Button, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { CHANGE_VIEWS, type ChangeSummary, type ChangeView } from '@/contract/approvals';
import { classifyApiError } from '@/lib/api-error';
import { describeFailure } from '@/lib/api-error-class';
import { formatExactDate, formatRelative, machineDate } from '@/lib/format-date';
import { pathTo, withQuery } from '@/lib/paths';
import { Link, useLocation, useNavigate } from '@/lib/router';
import { siteHref, useSite } from '@/lib/site-context';
import { approvalRulesQuery, changesQuery } from './approvals-api';
import classes from './approvals.module.css';
import { approvalsText, KIND_WORDS, STATE_WORDS, VIEW_WORDS } from './change-words';
import { RulePanel, ruleSentence } from './rule-panel';

const isView = (value: string | null): value is ChangeView => CHANGE_VIEWS.some((view) => view === value);

/** "3 hours ago", the exact moment (and zone) on hover. */
function When({ at, now }: { at: number; now: number }) {
  const date = new Date(at);
  return (
    <time dateTime={machineDate(date)} title={formatExactDate(date)}>
      {formatRelative(date, now)}
    </time>
  );
}

function ChangeRow({ change, now }: { change: ChangeSummary; now: number }) {
  const { site, sites, many } = useSite();
  const state = STATE_WORDS[change.state];
  const to = pathTo('approval', { id: change.id });
  const siteName = sites.find((one) => one.id === change.site)?.name ?? change.site;
  const open = change.state === 'pending' || change.state === 'approved' || change.state === 'returned';
  return (
    <li className={classes.row}>
      <Stack gap={2} className={classes.rowMain}>
        <Group gap="xs" wrap="nowrap" align="baseline">
          <Text span size="sm" c="dimmed" className={classes.kind}>
            {KIND_WORDS[change.kind]}
          </Text>
          {/* A change of another site opens under that site's address, where its Edit and Send work. */}
          {change.site === site.id ? (
            <Anchor component={Link} to={to} fw={600} className={classes.title}>
              {change.title}
            </Anchor>
          ) : (
            <Anchor href={siteHref(change.site, to, many)} fw={600} className={classes.title}>
              {change.title}
            </Anchor>
          )}
        </Group>
        <Text size="xs" c="dimmed">
          {many ? `${siteName} · ` : ''}
          {change.author.name} · asked <When at={change.askedAt} now={now} />
          {change.version > 1 ? ` · version ${change.version}` : ''} · {approvalsText(change.approvals, change.needed)}
          {open ? (
            <>
              {' '}
              · {change.expiresAt > now ? 'expires' : 'expired'} <When at={change.expiresAt} now={now} />
            </>
          ) : null}
        </Text>
      </Stack>
      <Group gap="xs" wrap="nowrap" className={classes.rowSide}>
        {change.mayApprove ? (
          <Badge variant="outline" color="blue">
            Yours to approve
          </Badge>
        ) : null}
        <Badge variant="light" color={state.color}>
          {state.text}
        </Badge>
      </Group>
    </li>
  );
}

function ChangeList({ view }: { view: ChangeView }) {
  const changes = useQuery(changesQuery(null, view));
  const [now] = useState(() => Date.now());
  if (changes.isPending) return <Loader aria-label="Loading the changes" mt="md" />;
  if (changes.isError) {
    return (
      <Alert color="red" title="The changes could not be loaded" role="alert" mt="md">
        <Stack gap="xs" align="flex-start">
          <Text size="sm">{describeFailure(classifyApiError(changes.error))}</Text>
          <Button variant="default" size="xs" onClick={() => void changes.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (changes.data.length === 0) {
    return (
      <Text mt="md" c="dimmed">
        {VIEW_WORDS[view].empty}
      </Text>
    );
  }
  return (
    <ul className={classes.list} aria-label={`Changes: ${VIEW_WORDS[view].tab}`}>
      {changes.data.map((change) => (
        <ChangeRow key={change.id} change={change} now={now} />
      ))}
    </ul>
  );
}

/** The site's rule: the form for an owner of the site, a sentence for anyone else when it is on. */
function SiteRule() {
  const { site } = useSite();
  const rules = useQuery(approvalRulesQuery);
  const rule = rules.data?.find((one) => one.site === site.id);
  if (rules.isError) {
    return (
      <Text size="sm" c="dimmed">
        The site’s approval rule could not be read: {describeFailure(classifyApiError(rules.error))}
      </Text>
    );
  }
  if (!rule) return null;
  if (rule.mayChange) return <RulePanel siteRule={rule} siteName={site.name} />;
  return (
    <Text size="sm">
      <strong>{site.name}:</strong> {ruleSentence(rule.rule)}
    </Text>
  );
}

export function ApprovalsPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const asked = new URLSearchParams(location.search).get('view');
  const view: ChangeView = isView(asked) ? asked : 'to-approve';
  const choose = (next: string | null) => {
    if (!isView(next)) return;
    // Replaced, so Back leaves the page rather than stepping through the tabs.
    navigate(withQuery(pathTo('approvals'), new URLSearchParams(next === 'to-approve' ? {} : { view: next })), { replace: true });
  };
  return (
    <Stack gap="md">
      <Stack gap={4}>
        <Title order={1}>Approvals</Title>
        <Text c="dimmed" size="sm">
          Writes that wait for a second person before they reach the store: exactly what will be sent, who asked, and who approved.
        </Text>
      </Stack>
      <SiteRule />
      <Tabs value={view} onChange={choose} keepMounted={false}>
        <Tabs.List>
          {CHANGE_VIEWS.map((one) => (
            <Tabs.Tab key={one} value={one}>
              {VIEW_WORDS[one].tab}
            </Tabs.Tab>
          ))}
        </Tabs.List>
        {CHANGE_VIEWS.map((one) => (
          <Tabs.Panel key={one} value={one}>
            <ChangeList view={one} />
          </Tabs.Panel>
        ))}
      </Tabs>
    </Stack>
  );
}
