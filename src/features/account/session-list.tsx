/**
 * Your sessions: each browser you are signed in on, with its device, address, when it was last used and
 * how it signed in; sign out any one of them, or every one but this.
 */
import { Badge, Button, Group, Paper, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SessionView } from '@/contract/people';
import { DateTime } from '@/lib/date-time';
import { formatRelative } from '@/lib/format-date';
import { failureMessage } from '@/lib/server-field-errors';
import { accountQuery, endOtherSessions, endSession } from './account-api';

const METHODS: Record<string, string> = {
  password: 'a password',
  passkey: 'a passkey',
  'password+passkey': 'a password and a passkey',
  'single-sign-on': 'single sign-on',
};

function Session({ session, now }: { session: SessionView; now: number }) {
  const queryClient = useQueryClient();
  const end = useMutation({
    mutationFn: () => endSession(session.handle),
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountQuery.queryKey }),
  });
  const device = session.device ?? 'An unknown device';
  return (
    <Paper withBorder p="sm" radius="md" component="li" aria-label={session.current ? `${device} (this browser)` : device}>
      <Group justify="space-between" align="flex-start" gap="xs" wrap="wrap">
        <Stack gap={2} style={{ minWidth: 0 }}>
          <Group gap="xs">
            <Text fw={600}>{device}</Text>
            {session.current ? (
              <Badge color="teal" variant="light" tt="none">
                This browser
              </Badge>
            ) : null}
          </Group>
          <Text size="sm" c="dimmed">
            {session.current ? 'In use now' : `Last used ${formatRelative(new Date(session.lastSeenAt), now)}`}
            {session.address ? ` · from ${session.address}` : ''}
          </Text>
          <Text size="sm" c="dimmed">
            Signed in <DateTime date={new Date(session.createdAt)} /> with {METHODS[session.method] ?? session.method}
          </Text>
          {end.isError ? (
            <Text size="sm" c="red" role="alert">
              {failureMessage(end.error)}
            </Text>
          ) : null}
        </Stack>
        {session.current ? null : (
          <Button variant="default" size="xs" loading={end.isPending} onClick={() => end.mutate()} aria-label={`Sign out ${device}`}>
            Sign out
          </Button>
        )}
      </Group>
    </Paper>
  );
}

export function SessionList({ sessions }: { sessions: readonly SessionView[] }) {
  const queryClient = useQueryClient();
  const others = sessions.filter((session) => !session.current).length;
  const endOthers = useMutation({
    mutationFn: endOtherSessions,
    onSettled: () => queryClient.invalidateQueries({ queryKey: accountQuery.queryKey }),
  });
  // One moment for the whole list, read when the page opens.
  const [now] = useState(() => Date.now());
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        {others === 0
          ? 'Only this browser is signed in as you.'
          : `This browser and ${others} other ${others === 1 ? 'session' : 'sessions'}.`}{' '}
        Sessions end after a while without use, and at the latest half a day after signing in.
      </Text>
      <Stack component="ul" gap="xs" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Your sessions">
        {sessions.map((session) => (
          <Session key={session.handle} session={session} now={now} />
        ))}
      </Stack>
      {others > 0 ? (
        <Button variant="light" color="red" w="fit-content" loading={endOthers.isPending} onClick={() => endOthers.mutate()}>
          Sign out all other sessions
        </Button>
      ) : null}
      {endOthers.isError ? (
        <Text size="sm" c="red" role="alert">
          {failureMessage(endOthers.error)}
        </Text>
      ) : null}
    </Stack>
  );
}
