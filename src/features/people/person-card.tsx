/**
 * One person on the People page: who they are, where they stand, their roles, and what an owner may do
 * to their account: change their roles, disable or enable them, reset them (a new link; the old password
 * and every session end), sign them out everywhere.
 */
import { Alert, Badge, Button, Group, Menu, Modal, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Grant } from '@/contract/access';
import { describeGrant, type LinkView, type PersonView } from '@/contract/people';
import { DateTime } from '@/lib/date-time';
import { failureMessage } from '@/lib/server-field-errors';
import { GrantsMatrix } from './grants-matrix';
import { grantsFromMatrix, matrixFromGrants, type GrantMatrix } from './grants-matrix-model';
import { LinkShown } from './link-shown';
import { peopleQuery } from '@/lib/people-query';
import { useSite } from '@/lib/site-context';
import { resetPerson, setDisabled, setGrants, signOutPerson } from './people-api';
import classes from './person-card.module.css';

const STATUS: Record<PersonView['status'], { label: string; color: string }> = {
  active: { label: 'Active', color: 'teal' },
  invited: { label: 'Invited', color: 'blue' },
  disabled: { label: 'Disabled', color: 'gray' },
};

/**
 * The roles dialog: always there, opened and closed, so that Mantine gives the focus back to the Roles
 * button when it closes (it cannot when the dialog leaves the page as it closes). Its form is mounted only
 * while it is open, so each opening starts from the person's roles as they are.
 */
function RolesDialog({
  opened,
  person,
  sites,
  isSelf,
  onClose,
}: {
  opened: boolean;
  person: PersonView;
  sites: readonly { id: string; name: string }[];
  isSelf: boolean;
  onClose: () => void;
}) {
  return (
    <Modal opened={opened} onClose={onClose} title={`Roles of ${person.displayName}`} size="lg">
      <RolesForm person={person} sites={sites} isSelf={isSelf} onClose={onClose} />
    </Modal>
  );
}

function RolesForm({
  person,
  sites,
  isSelf,
  onClose,
}: {
  person: PersonView;
  sites: readonly { id: string; name: string }[];
  isSelf: boolean;
  onClose: () => void;
}) {
  const queryClient = useQueryClient();
  const { onMeChanged } = useSite();
  const siteIds = sites.map((site) => site.id);
  const [matrix, setMatrix] = useState<GrantMatrix>(() => matrixFromGrants(person.grants, siteIds));
  const save = useMutation({
    mutationFn: (grants: Grant[]) => setGrants(person.id, grants),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: peopleQuery.queryKey });
      if (isSelf) onMeChanged();
      onClose();
    },
  });
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate(grantsFromMatrix(matrix, siteIds));
      }}
      aria-label={`Roles of ${person.displayName}`}
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          A change takes effect at their next click, wherever they are signed in.
        </Text>
        <GrantsMatrix name={`roles-${person.id}`} sites={sites} value={matrix} onChange={setMatrix} />
        {save.isError ? (
          <Alert color="red" role="alert" title="Roles not changed">
            {failureMessage(save.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" loading={save.isPending}>
            Save roles
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

type Outcome = { text: string } | { link: LinkView } | null;

export function PersonCard({
  person,
  sites,
  isSelf,
}: {
  person: PersonView;
  sites: readonly { id: string; name: string }[];
  isSelf: boolean;
}) {
  const queryClient = useQueryClient();
  const siteNames = new Map(sites.map((site) => [site.id, site.name]));
  const [editing, setEditing] = useState(false);
  const [confirmReset, setConfirmReset] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: peopleQuery.queryKey });
  const act = useMutation({
    mutationFn: async (action: 'disable' | 'enable' | 'reset' | 'sign-out'): Promise<Outcome> => {
      if (action === 'disable') {
        await setDisabled(person.id, true);
        return { text: `${person.displayName} is disabled and signed out everywhere, from their next click.` };
      }
      if (action === 'enable') {
        await setDisabled(person.id, false);
        return { text: `${person.displayName} may sign in again.` };
      }
      if (action === 'reset') return { link: await resetPerson(person.id) };
      const { ended } = await signOutPerson(person.id);
      return {
        text:
          ended === 0
            ? `${person.displayName} was not signed in anywhere.`
            : `${person.displayName} is signed out of ${ended} ${ended === 1 ? 'session' : 'sessions'}.`,
      };
    },
    onMutate: () => setOutcome(null),
    onSuccess: (next) => setOutcome(next),
    onSettled: () => refresh(),
  });
  const status = STATUS[person.status];
  return (
    <Paper withBorder p="sm" radius="md" component="li" aria-label={person.displayName}>
      <Stack gap="xs">
        <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
          <Stack gap={0} style={{ minWidth: 0, flex: '1 1 220px' }}>
            <Group gap="xs">
              <Text fw={600}>{person.displayName}</Text>
              {isSelf ? (
                <Badge variant="outline" tt="none">
                  You
                </Badge>
              ) : null}
              <Badge color={status.color} variant="light" tt="none">
                {status.label}
              </Badge>
            </Group>
            <Text size="sm" c="dimmed" style={{ overflowWrap: 'anywhere' }}>
              {person.email}
            </Text>
            <Text size="xs" c="dimmed">
              {person.link ? (
                <>
                  {person.link.purpose === 'invitation' ? 'Invitation' : 'Reset link'} open until{' '}
                  <DateTime date={new Date(person.link.expiresAt)} />
                </>
              ) : person.lastSeenAt !== null ? (
                <>
                  Last seen <DateTime date={new Date(person.lastSeenAt)} /> · {person.sessions}{' '}
                  {person.sessions === 1 ? 'session' : 'sessions'}
                </>
              ) : person.status === 'active' ? (
                'Not signed in now'
              ) : null}
            </Text>
          </Stack>
          <Group gap="xs">
            <Button variant="default" size="xs" onClick={() => setEditing(true)} aria-label={`Change roles of ${person.displayName}`}>
              Roles
            </Button>
            <Menu position="bottom-end" withinPortal>
              <Menu.Target>
                <Button variant="default" size="xs" aria-label={`More for ${person.displayName}`} loading={act.isPending}>
                  More
                </Button>
              </Menu.Target>
              <Menu.Dropdown>
                {person.status === 'disabled' ? (
                  <Menu.Item onClick={() => act.mutate('enable')}>Enable</Menu.Item>
                ) : (
                  <Menu.Item onClick={() => act.mutate('disable')} disabled={isSelf} className={classes.danger}>
                    {isSelf ? 'Disable (not yourself)' : 'Disable'}
                  </Menu.Item>
                )}
                <Menu.Item onClick={() => setConfirmReset(true)} disabled={isSelf}>
                  {isSelf ? 'Reset (change yours under Your account)' : 'Reset and make a new link…'}
                </Menu.Item>
                <Menu.Item onClick={() => act.mutate('sign-out')}>Sign out everywhere</Menu.Item>
              </Menu.Dropdown>
            </Menu>
          </Group>
        </Group>
        {person.grants.length === 0 ? (
          <Text size="sm" c="dimmed">
            No role yet: they can sign in but use no site.
          </Text>
        ) : (
          <Group gap={6} role="list" aria-label={`Roles of ${person.displayName}`}>
            {person.grants.map((grant) => (
              <Badge key={grant.siteId} variant="light" tt="none" role="listitem">
                {describeGrant(grant, siteNames)}
              </Badge>
            ))}
          </Group>
        )}
        {act.isError ? (
          <Text size="sm" c="red" role="alert">
            {failureMessage(act.error)}
          </Text>
        ) : null}
        {outcome && 'text' in outcome ? (
          <Text size="sm" c="teal" role="status">
            {outcome.text}
          </Text>
        ) : null}
        {outcome && 'link' in outcome ? <LinkShown link={outcome.link} who={person.displayName} purpose="reset" /> : null}
      </Stack>
      <RolesDialog opened={editing} person={person} sites={sites} isSelf={isSelf} onClose={() => setEditing(false)} />
      <Modal opened={confirmReset} onClose={() => setConfirmReset(false)} title={`Reset ${person.displayName}?`}>
        <Stack gap="sm">
          <Text size="sm">
            Their password stops working now and they are signed out everywhere. You get a new one-time link to send them, with which they
            choose a new password.
          </Text>
          <Group justify="flex-end" gap="sm">
            <Button variant="default" onClick={() => setConfirmReset(false)}>
              Cancel
            </Button>
            <Button
              color="red"
              onClick={() => {
                setConfirmReset(false);
                act.mutate('reset');
              }}
            >
              Reset
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Paper>
  );
}
