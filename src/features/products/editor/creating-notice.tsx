/**
 * What the editor shows while the platform has the product: where it is being created and for how long
 * we have been waiting, instead of a bare spinner.
 */
import { Alert, Loader } from '@mantine/core';
import { useEffect, useState } from 'react';

/** `doing`: what the platform is asked to do ("Creating", "Saving the changes"). */
export function CreatingNotice({ target, doing = 'Creating' }: { target: string; doing?: string }) {
  const [started] = useState(() => Date.now());
  const [now, setNow] = useState(started);
  useEffect(() => {
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, []);
  const seconds = Math.floor((now - started) / 1000);
  return (
    <Alert color="blue" icon={<Loader size="sm" />} title={`${doing} on ${target}…`} role="status" aria-live="polite">
      {seconds < 1 ? 'Sent to the platform; waiting for its answer.' : `Waiting for the platform’s answer: ${seconds} s so far.`} Leave the
      page open: the answer decides what happens next.
    </Alert>
  );
}
