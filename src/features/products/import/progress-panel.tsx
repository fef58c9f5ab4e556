/** Sending: how far, how fast, how long yet; Pause, Resume and Cancel. */
import { Alert, Button, Group, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { Progress as ImportProgress } from './use-import';
import { WARNING_STYLES } from './warning';

const seconds = (ms: number) => {
  const s = Math.max(0, Math.round(ms / 1000));
  return s < 60 ? `${s} s` : `${Math.floor(s / 60)} min ${s % 60} s`;
};

export function ProgressPanel({
  progress,
  onPause,
  onResume,
  onCancel,
}: {
  progress: ImportProgress;
  onPause: () => void;
  onResume: () => void;
  onCancel: () => void;
}) {
  const { snapshot, total } = progress;
  // A clock for the elapsed time and the wait while nothing else changes.
  const [now, setNow] = useState(() => Date.now());
  const active = snapshot.state === 'running' || snapshot.state === 'waiting';
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => setNow(Date.now()), 500);
    return () => clearInterval(timer);
  }, [active]);
  const done = snapshot.settled;
  const rate = snapshot.activeMs > 0 ? done / (snapshot.activeMs / 1000) : 0;
  const left = total - done;
  const percent = total > 0 ? (done / total) * 100 : 100;
  const label =
    snapshot.state === 'done'
      ? 'Finished'
      : snapshot.state === 'cancelled'
        ? 'Cancelled'
        : snapshot.state === 'paused'
          ? 'Paused'
          : snapshot.state === 'waiting'
            ? 'Waiting for the platform'
            : 'Creating';
  return (
    <Stack gap="xs">
      <Group justify="space-between" wrap="wrap">
        <Text fw={600} role="status">
          {label}: {done} of {total} answered
        </Text>
        <Group gap="xs">
          {active && (
            <Button size="xs" variant="default" onClick={onPause}>
              Pause
            </Button>
          )}
          {snapshot.state === 'paused' && (
            <Button size="xs" onClick={onResume}>
              Resume
            </Button>
          )}
          {(active || snapshot.state === 'paused') && (
            <Button size="xs" color="red" variant="light" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </Group>
      </Group>
      <Progress value={percent} aria-label="Products answered" size="lg" animated={snapshot.state === 'running'} />
      <Text size="sm" c="dimmed">
        {rate.toFixed(1)} products/s · elapsed {seconds(snapshot.activeMs)}
        {rate > 0 && left > 0 ? ` · about ${seconds((left / rate) * 1000)} left` : ''}
        {snapshot.inFlight.length > 0 ? ` · ${snapshot.inFlight.length} on the way` : ''}
      </Text>
      {snapshot.state === 'waiting' && snapshot.resumeAt !== null && (
        <Alert color="yellow" styles={WARNING_STYLES} title="The platform asked us to slow down">
          {snapshot.reason} Sending again in {seconds(snapshot.resumeAt - now)}.
        </Alert>
      )}
      {snapshot.state === 'paused' && snapshot.reason && (
        <Alert color="red" title="Paused: the platform refused our server">
          {snapshot.reason} Nothing more is sent until you resume.
        </Alert>
      )}
    </Stack>
  );
}
