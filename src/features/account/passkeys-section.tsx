/**
 * "Passkeys" on Your account: the person's passkeys (name, when added, when last used), adding one with a
 * name, renaming and removing. A passkey signs in alone, or confirms a password. The browser's part of
 * adding one (src/lib/passkeys.ts) loads only when the person adds one.
 */
import { Alert, Button, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useId, useState, type FormEvent } from 'react';
import { ACCESS_PATHS, PASSKEY_NAME_MAX, passkeyPath, type PasskeyList, type PasskeySummary } from '@/contract/access';
import { isJsonObject } from '@/contract/site-api-basics';
import { callOwnApi } from '@/lib/api-client';
import { ownApiFailureText } from '@/lib/own-api-failure';
import { DateTime } from '@/lib/date-time';
import { createPasskey, passkeyProblem } from '@/lib/passkeys';
import hidden from '@/lib/visually-hidden.module.css';

function readPasskeys(value: unknown): PasskeySummary[] {
  const list = isJsonObject(value) && Array.isArray(value.passkeys) ? (value.passkeys as unknown[]) : [];
  return list.flatMap((item) =>
    isJsonObject(item) && typeof item.id === 'string' && typeof item.name === 'string' && typeof item.createdAt === 'number'
      ? [
          {
            id: item.id,
            name: item.name,
            createdAt: item.createdAt,
            lastUsedAt: typeof item.lastUsedAt === 'number' ? item.lastUsedAt : null,
          },
        ]
      : [],
  );
}

const passkeysQueryOptions = queryOptions({
  queryKey: ['account', 'passkeys'] as const,
  queryFn: async ({ signal }): Promise<PasskeyList> => ({ passkeys: readPasskeys(await callOwnApi(ACCESS_PATHS.passkeys, {}, signal)) }),
});

/**
 * A change run as a mutation of the page's query client, so that one our server answers 401 (the session
 * ended) brings the sign-in page like every other (src/app/query-client.ts).
 */
const useChange = () => useMutation({ mutationFn: (work: () => Promise<unknown>) => work() }).mutateAsync;

/** What a failure says to the person: the browser's words for a cancelled prompt, the server's for a refusal. */
function problemText(error: unknown): string {
  const browser = passkeyProblem(error);
  if (browser) return browser;
  return ownApiFailureText(error);
}

function PasskeyRow({
  passkey,
  onProblem,
  onChanged,
}: {
  passkey: PasskeySummary;
  onProblem: (text: string | null) => void;
  onChanged: () => Promise<void>;
}) {
  const [mode, setMode] = useState<'show' | 'rename' | 'remove'>('show');
  const [name, setName] = useState(passkey.name);
  const [busy, setBusy] = useState(false);

  const change = useChange();
  const act = async (work: () => Promise<unknown>) => {
    setBusy(true);
    onProblem(null);
    try {
      await change(work);
      await onChanged();
      setMode('show');
    } catch (error) {
      onProblem(problemText(error));
    } finally {
      setBusy(false);
    }
  };
  const rename = (event: FormEvent) => {
    event.preventDefault();
    void act(() => callOwnApi(passkeyPath(passkey.id), { method: 'PATCH', body: { name } }));
  };

  return (
    <Table.Tr>
      <Table.Td>
        {mode === 'rename' ? (
          <form onSubmit={rename} aria-label={`Rename ${passkey.name}`}>
            <Group gap="xs" align="end">
              <TextInput
                label={`New name for ${passkey.name}`}
                required
                maxLength={PASSKEY_NAME_MAX}
                value={name}
                onChange={(event) => setName(event.currentTarget.value)}
                data-autofocus
              />
              <Button type="submit" size="xs" loading={busy} disabled={!name.trim()}>
                Save
              </Button>
              <Button type="button" size="xs" variant="default" onClick={() => setMode('show')}>
                Cancel
              </Button>
            </Group>
          </form>
        ) : (
          <Text fw={600}>{passkey.name}</Text>
        )}
      </Table.Td>
      <Table.Td>
        <DateTime date={new Date(passkey.createdAt)} />
      </Table.Td>
      <Table.Td>{passkey.lastUsedAt === null ? 'Never' : <DateTime date={new Date(passkey.lastUsedAt)} />}</Table.Td>
      <Table.Td>
        {mode === 'remove' ? (
          <Group gap="xs">
            <Text size="sm">It will no longer sign you in.</Text>
            <Button
              size="xs"
              color="red"
              loading={busy}
              onClick={() => void act(() => callOwnApi(passkeyPath(passkey.id), { method: 'DELETE' }))}
            >
              Remove {passkey.name}
            </Button>
            <Button size="xs" variant="default" onClick={() => setMode('show')}>
              Keep it
            </Button>
          </Group>
        ) : mode === 'show' ? (
          <Group gap="xs">
            <Button size="xs" variant="default" aria-label={`Rename ${passkey.name}`} onClick={() => setMode('rename')}>
              Rename
            </Button>
            <Button size="xs" variant="default" color="red" aria-label={`Remove ${passkey.name}`} onClick={() => setMode('remove')}>
              Remove
            </Button>
          </Group>
        ) : null}
      </Table.Td>
    </Table.Tr>
  );
}

export function PasskeysSection() {
  const titleId = useId();
  const queryClient = useQueryClient();
  const list = useQuery(passkeysQueryOptions);
  const [name, setName] = useState('');
  const [adding, setAdding] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  const [added, setAdded] = useState<string | null>(null);

  const refresh = () => queryClient.invalidateQueries({ queryKey: passkeysQueryOptions.queryKey });
  const change = useChange();

  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (adding || !name.trim()) return;
    setAdding(true);
    setProblem(null);
    setAdded(null);
    try {
      await change(async () => {
        const options = await callOwnApi(ACCESS_PATHS.passkeyOptions, { method: 'POST' });
        const response = await createPasskey(options);
        await callOwnApi(ACCESS_PATHS.passkeys, { method: 'POST', body: { name, response } });
      });
      setAdded(name.trim());
      setName('');
      await refresh();
    } catch (error) {
      setProblem(problemText(error));
    } finally {
      setAdding(false);
    }
  };

  const passkeys = list.data?.passkeys ?? [];
  return (
    <Stack component="section" aria-labelledby={titleId} gap="sm">
      <Title order={2} id={titleId} size="h4">
        Passkeys
      </Title>
      <Text size="sm" c="dimmed">
        A passkey signs you in with this device’s screen lock, your phone or a security key, with no password to type; it also confirms your
        password where your account needs two steps.
      </Text>
      {problem ? (
        <Alert color="red" role="alert" title="Not done" withCloseButton closeButtonLabel="Dismiss" onClose={() => setProblem(null)}>
          {problem}
        </Alert>
      ) : null}
      {added ? (
        <Alert color="green" role="status" withCloseButton closeButtonLabel="Dismiss" onClose={() => setAdded(null)}>
          Passkey “{added}” added: you can sign in with it now.
        </Alert>
      ) : null}
      {list.isPending ? <Text c="dimmed">Loading your passkeys…</Text> : null}
      {list.isError ? (
        <Alert color="red" title="Your passkeys could not be loaded">
          {problemText(list.error)}{' '}
          <Button size="xs" variant="subtle" onClick={() => void list.refetch()}>
            Try again
          </Button>
        </Alert>
      ) : null}
      {list.isSuccess && passkeys.length === 0 ? <Text>You have no passkeys yet.</Text> : null}
      {passkeys.length > 0 ? (
        <Table.ScrollContainer minWidth={560}>
          <Table aria-label="Your passkeys">
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Name</Table.Th>
                <Table.Th>Added</Table.Th>
                <Table.Th>Last used</Table.Th>
                <Table.Th>
                  <span className={hidden.visuallyHidden}>Actions</span>
                </Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {passkeys.map((passkey) => (
                <PasskeyRow key={passkey.id} passkey={passkey} onProblem={setProblem} onChanged={refresh} />
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      ) : null}
      <form onSubmit={(event) => void add(event)} aria-label="Add a passkey">
        <Group gap="xs" align="end">
          <TextInput
            label="Name of the new passkey"
            description="To tell it apart later, e.g. “Work laptop” or “Phone”"
            required
            maxLength={PASSKEY_NAME_MAX}
            value={name}
            onChange={(event) => setName(event.currentTarget.value)}
          />
          <Button type="submit" loading={adding} disabled={!name.trim()}>
            Add a passkey
          </Button>
        </Group>
      </form>
    </Stack>
  );
}
