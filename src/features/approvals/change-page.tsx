/**
 * One change waiting for (or past) a second person's approval: what it is, where it stands, exactly what
 * it will send (change-content.tsx), its hash, what the person may do with it (change-actions.tsx), and
 * its history, each step also in the activity record.
 */
import { Alert, Anchor, Badge, Button, Card, Group, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import type { Change } from '@/contract/approvals';
import { ApiError, classifyApiError } from '@/lib/api-error';
import { describeFailure } from '@/lib/api-error-class';
import { DateTime } from '@/lib/date-time';
import { pathTo } from '@/lib/paths';
import { scrollRegionProps } from '@/lib/scroll-region';
import { Link, usePathParams } from '@/lib/router';
import { siteHref, useSite } from '@/lib/site-context';
import { changeQuery } from './approvals-api';
import classes from './approvals.module.css';
import { ChangeActions } from './change-actions';
import { ChangeContent } from './change-content';
import { approvalsText, EVENT_WORDS, KIND_WORDS, STATE_WORDS } from './change-words';

function Fact({ label, children }: { label: string; children: ReactNode }) {
  return (
    <Table.Tr>
      <Table.Th scope="row" w={{ base: 96, sm: 160 }} fw={500} style={{ verticalAlign: 'top' }}>
        {label}
      </Table.Th>
      <Table.Td>{children}</Table.Td>
    </Table.Tr>
  );
}

/** Where the change stands, in a sentence, when there is more to say than its badge. */
function StateNote({ change }: { change: Change }) {
  const last = (action: string) => change.events.findLast((event) => event.action === action);
  switch (change.state) {
    case 'returned':
      return (
        <Alert color="orange" title="Back with its author: nothing was sent">
          The product changed on the platform after this was asked for, so sending it would overwrite what changed.{' '}
          {change.mayEdit
            ? '“Edit against the product as it is now” shows what changed there beside this change’s edits, field by field; choose which to keep, then ask again.'
            : `${change.author.name} may edit it on the product as it is now and ask again.`}
        </Alert>
      );
    case 'rejected': {
      const rejected = last('rejected');
      return (
        <Alert color="red" title={`Rejected${rejected?.by ? ` by ${rejected.by.name}` : ''}`}>
          {rejected?.reason ? `“${rejected.reason}”` : null} Nothing was sent; {change.author.name} may edit it and ask again.
        </Alert>
      );
    }
    case 'withdrawn':
      return (
        <Alert color="gray" title="Withdrawn by its author">
          Nothing was sent.
        </Alert>
      );
    case 'expired':
      return (
        <Alert color="gray" title="Expired">
          It waited longer than approvals are kept open, so nothing was sent. Ask again from the editor if it is still wanted.
        </Alert>
      );
    case 'sent': {
      const sent = last('sent');
      return (
        <Alert color="teal" title="Sent">
          Sent exactly as approved
          {sent ? (
            <>
              , <DateTime date={new Date(sent.at)} />
            </>
          ) : null}
          {sent?.write !== undefined ? `; the write is entry ${sent.write} of the activity record` : ''}.
        </Alert>
      );
    }
    default:
      return null;
  }
}

function History({ change }: { change: Change }) {
  return (
    <Stack gap="xs" component="section" aria-labelledby="change-history">
      <Title order={2} size="h4" id="change-history">
        History
      </Title>
      <Table.ScrollContainer minWidth={420} scrollAreaProps={scrollRegionProps('History of this change')}>
        <Table withTableBorder fz="sm" aria-labelledby="change-history">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">When</Table.Th>
              <Table.Th scope="col">What</Table.Th>
              <Table.Th scope="col">Who</Table.Th>
              <Table.Th scope="col">Version</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {change.events.map((event, i) => (
              <Table.Tr key={`${event.at}-${i}`}>
                <Table.Td>
                  <DateTime date={new Date(event.at)} />
                </Table.Td>
                <Table.Td>
                  {EVENT_WORDS[event.action]}
                  {event.reason ? <Text size="sm">“{event.reason}”</Text> : null}
                  {event.seq !== undefined ? (
                    <Text size="xs" c="dimmed">
                      Activity entry {event.seq}
                      {event.write !== undefined ? `, the write ${event.write}` : ''}
                    </Text>
                  ) : null}
                </Table.Td>
                <Table.Td>{event.by ? event.by.name : 'site-admin'}</Table.Td>
                <Table.Td>{event.version}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Stack>
  );
}

function ChangeView({ change }: { change: Change }) {
  const { site, sites, many } = useSite();
  const changeSite = sites.find((one) => one.id === change.site);
  const siteName = changeSite?.name ?? change.site;
  const state = STATE_WORDS[change.state];
  const here = change.site === site.id;
  return (
    <Stack gap="md">
      <Stack gap={6}>
        <Anchor component={Link} to={pathTo('approvals')} size="sm">
          All approvals
        </Anchor>
        <Title order={1} className={classes.title}>
          {change.title}
        </Title>
        <Group gap="xs">
          <Badge variant="light" color="gray">
            {KIND_WORDS[change.kind]}
          </Badge>
          <Badge variant="light" color={state.color}>
            {state.text}
          </Badge>
          {change.override ? (
            <Badge variant="filled" color="orange">
              Sent without approval (owner)
            </Badge>
          ) : null}
        </Group>
      </Stack>
      <StateNote change={change} />
      {change.override ? (
        <Alert color="orange" title={`Allowed without approval by ${change.override.by.name}, an owner`}>
          “{change.override.reason}” (<DateTime date={new Date(change.override.at)} />; recorded in the activity record)
        </Alert>
      ) : null}
      <Card withBorder padding="sm" component="section" aria-label="About this change">
        <Table fz="sm" withRowBorders={false} verticalSpacing={4}>
          <Table.Tbody>
            {many ? <Fact label="Site">{siteName}</Fact> : null}
            <Fact label="Asked by">
              {change.author.name}, <DateTime date={new Date(change.askedAt)} />
            </Fact>
            <Fact label="Version">{change.version}</Fact>
            <Fact label="Approvals">
              {approvalsText(change.approvals, change.needed)}
              {change.approvedBy.length > 0 ? `: ${change.approvedBy.map((one) => one.name).join(', ')}` : ''} (from{' '}
              {change.approvers.map((role) => (role === 'owner' ? 'owners' : 'editors')).join(' or ')}, never its author)
            </Fact>
            <Fact label="Expires">
              <DateTime date={new Date(change.expiresAt)} />
            </Fact>
            <Fact label="SHA-256">
              <span className={classes.hash} data-testid="change-hash">
                {change.hash}
              </span>
            </Fact>
          </Table.Tbody>
        </Table>
      </Card>
      {here ? (
        <ChangeActions change={change} siteName={siteName} />
      ) : (
        <Alert color="blue" title={`A change of ${siteName}`}>
          <Anchor href={siteHref(change.site, pathTo('approval', { id: change.id }), many)}>Open it on {siteName}</Anchor> to approve, edit
          or send it.
        </Alert>
      )}
      <ChangeContent change={change} site={changeSite} />
      <History change={change} />
    </Stack>
  );
}

export function ChangePage() {
  const id = usePathParams('approval')?.id ?? '';
  const change = useQuery(changeQuery(id));
  if (change.isPending) return <Loader aria-label="Loading the change" />;
  if (change.isError) {
    const missing = change.error instanceof ApiError && change.error.status === 404;
    return (
      <Stack gap="md" maw={640}>
        <Title order={1}>{missing ? 'No such change' : 'The change could not be loaded'}</Title>
        <Text>
          {missing
            ? 'There is no change with this address on the sites you may use. It may have been asked for on another site.'
            : describeFailure(classifyApiError(change.error))}
        </Text>
        <Group gap="xs">
          {missing ? null : <Button onClick={() => void change.refetch()}>Try again</Button>}
          <Button component={Link} to={pathTo('approvals')} variant="default">
            All approvals
          </Button>
        </Group>
      </Stack>
    );
  }
  return <ChangeView change={change.data} />;
}
