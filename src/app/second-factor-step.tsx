/**
 * The sign-in's second step, after the right password: confirm with one of your passkeys, or, when the
 * owners' rule asks this person for a passkey and they have none yet (`setUp`), add one on this device to
 * finish signing in. The pending sign-in lives on the server for five minutes; when it has gone, the
 * person starts again from the password.
 */
import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { ACCESS_PATHS, PASSKEY_NAME_MAX } from '@/contract/access';
import type { SignedIn } from '@/contract/sign-in-answers';
import { secondFactorOptionsReader, signInAnswerReader } from '@/contract/sign-in-answers';
import { callOwnApi } from '@/lib/api-client';
import { isNotSignedIn } from '@/lib/own-api-failure';
import { createPasskey, passkeyProblem, choosePasskey } from '@/lib/passkeys';

export function SecondFactorStep({
  setUp,
  onSignedIn,
  onStartAgain,
  describeError,
}: {
  setUp: boolean;
  onSignedIn: (signedIn: SignedIn) => void;
  /** Back to the password; with why, when the server ended the pending sign-in. */
  onStartAgain: (problem: string | null) => void;
  describeError: (error: unknown) => string;
}) {
  const [name, setName] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);

  const confirm = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      const step = await callOwnApi(ACCESS_PATHS.secondFactorOptions, { method: 'POST', answer: secondFactorOptionsReader });
      const response = step.setUp ? await createPasskey(step.options) : await choosePasskey(step.options);
      const body = step.setUp && name.trim() ? { response, name } : { response };
      const answer = await callOwnApi(ACCESS_PATHS.secondFactor, { method: 'POST', body, answer: signInAnswerReader });
      if (answer.result === 'signed-in') onSignedIn(answer);
    } catch (error) {
      // The server has ended the pending sign-in (too late, or a passkey that did not confirm it): from the password again.
      if (isNotSignedIn(error)) onStartAgain(describeError(error));
      else setProblem(passkeyProblem(error) ?? describeError(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <form
      onSubmit={(event) => void confirm(event)}
      noValidate
      aria-label={setUp ? 'Add a passkey to sign in' : 'Confirm with your passkey'}
    >
      <Stack>
        <Title order={2} fz="h4">
          {setUp ? 'Add a passkey to finish signing in' : 'Confirm with your passkey'}
        </Title>
        {problem ? (
          <Alert color="red" role="alert" title="Not signed in yet">
            {problem}
          </Alert>
        ) : null}
        {setUp ? (
          <>
            <Text size="sm">
              Your account needs a passkey as well as your password. Add one now: your browser asks where to keep it (this device, your
              phone or a security key). From then on you sign in with your password and that passkey.
            </Text>
            <TextInput
              label="Name of the passkey"
              description="To tell it apart under Your account, e.g. “Work laptop”"
              placeholder="Passkey"
              maxLength={PASSKEY_NAME_MAX}
              value={name}
              onChange={(event) => setName(event.currentTarget.value)}
            />
          </>
        ) : (
          <Text size="sm">Your password was right. Use one of your passkeys to finish signing in.</Text>
        )}
        <Button type="submit" loading={busy} fullWidth>
          {setUp ? 'Add a passkey and sign in' : 'Use your passkey'}
        </Button>
        <Anchor component="button" type="button" size="sm" onClick={() => onStartAgain(null)}>
          Start again with your password
        </Anchor>
      </Stack>
    </form>
  );
}
