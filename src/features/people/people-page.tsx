/**
 * People (owners of every site): everyone who may sign in, with their roles and where they stand;
 * inviting a person (a one-time link to send on); each person's roles, disabling, reset and signing out;
 * and the rule on second factors. The router lets only owners of every site open it.
 */
import { Alert, Button, Card, Group, Loader, Modal, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useDeferredValue, useState } from 'react';
import type { InvitedView, PersonView } from '@/contract/people';
import { failureMessage } from '@/lib/server-field-errors';
import { useSite } from '@/lib/site-context';
import { InviteForm } from './invite-form';
import { LinkShown } from './link-shown';
import { peopleQuery } from '@/lib/people-query';
import { PersonCard } from './person-card';
import { RoleCapabilities } from './role-capabilities';
import { SecondFactorRuleForm } from './second-factor-rule';

const matches = (person: PersonView, search: string) =>
  search === '' || `${person.displayName} ${person.email}`.toLowerCase().includes(search.trim().toLowerCase());

export function PeoplePage() {
  const { me } = useSite();
  const people = useQuery(peopleQuery);
  const [inviting, setInviting] = useState(false);
  const [invited, setInvited] = useState<InvitedView | null>(null);
  const [search, setSearch] = useState('');
  const deferred = useDeferredValue(search);
  const selfId = me.kind === 'person' ? me.id : null;

  return (
    <Stack gap="lg" maw={1000}>
      <Group justify="space-between" align="flex-end" gap="sm">
        <Stack gap={4}>
          <Title order={1}>People</Title>
          <Text c="dimmed">Who may sign in, and what each may do on which site.</Text>
        </Stack>
        <Button onClick={() => setInviting(true)} disabled={!people.data}>
          Invite a person
        </Button>
      </Group>

      {invited ? <LinkShown link={invited.link} who={invited.person.displayName} purpose="invitation" /> : null}

      {people.isPending ? (
        <Group gap="xs" aria-busy="true">
          <Loader size="sm" aria-label="Loading people" />
          <Text c="dimmed">Loading people…</Text>
        </Group>
      ) : people.isError ? (
        <Alert color="red" role="alert" title="People could not be loaded">
          <Stack gap="xs">
            <Text size="sm">{failureMessage(people.error)}</Text>
            <Button size="xs" w="fit-content" onClick={() => void people.refetch()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : (
        <>
          <Card withBorder padding="md" component="section" aria-labelledby="people-everyone">
            <Group justify="space-between" mb="sm" gap="sm">
              <Title order={2} size="h4" id="people-everyone">
                Everyone ({people.data.people.length})
              </Title>
              {people.data.people.length > 5 ? (
                <TextInput
                  aria-label="Find a person"
                  placeholder="Find by name or e-mail"
                  value={search}
                  onChange={(event) => setSearch(event.currentTarget.value)}
                  w={{ base: '100%', xs: 260 }}
                />
              ) : null}
            </Group>
            {people.data.people.length <= 1 ? (
              <Text size="sm" c="dimmed" mb="sm">
                Only you so far. Invite the people you work with: each signs in as themselves, with a role on the sites they work on.
              </Text>
            ) : null}
            <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="People">
              {people.data.people
                .filter((person) => matches(person, deferred))
                .map((person) => (
                  <PersonCard key={person.id} person={person} sites={people.data.sites} isSelf={person.id === selfId} />
                ))}
            </Stack>
          </Card>
          <Card withBorder padding="md" component="section" aria-labelledby="people-role-capabilities">
            <Title order={2} size="h4" id="people-role-capabilities" mb={4}>
              What each role may do
            </Title>
            <RoleCapabilities />
          </Card>
          <Card withBorder padding="md" component="section" aria-labelledby="people-second-factor">
            <Title order={2} size="h4" id="people-second-factor" mb={4}>
              Passkey after the password
            </Title>
            <SecondFactorRuleForm rule={people.data.secondFactor} />
          </Card>
          <Modal opened={inviting} onClose={() => setInviting(false)} title="Invite a person" size="lg">
            <InviteForm
              sites={people.data.sites}
              onCancel={() => setInviting(false)}
              onInvited={(answer) => {
                setInviting(false);
                setInvited(answer);
              }}
            />
          </Modal>
        </>
      )}
    </Stack>
  );
}
