/**
 * The sign-in page: shown on any address when our server answers 401 (nobody signed in on this browser,
 * or the session ended), so that after signing in the person is where the address says. The ways in are
 * the server's (`GET /api/sign-in`): a password always; passkeys and single sign-on where set up; in the
 * stakeholder demo, the demo people with their passwords.
 */
import { Alert, Anchor, Button, Center, Divider, Loader, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { lazy, Suspense, useEffect, useRef, useState, type FormEvent } from 'react';
import { ACCESS_PATHS, type SignInOptions } from '@/contract/access';
import type { SignedIn } from '@/contract/sign-in-answers';
import { signInAnswerReader } from '@/contract/sign-in-answers';
import { isJsonObject } from '@/contract/site-api-basics';
import { callOwnApi } from '@/lib/api-client';
import { classifyApiError } from '@/lib/api-error';
import { describeFailure } from '@/lib/api-error-class';
import { ownApiFailureText } from '@/lib/own-api-failure';
import classes from './sign-in-page.module.css';
import { warmNextScreen } from './warm-next-screen';

// Shown only when an account needs a passkey after its password: its code (and the passkey code) loads then.
const SecondFactorStep = lazy(() => import('./second-factor-step').then((m) => ({ default: m.SecondFactorStep })));
import { SingleSignOnButton, SingleSignOnProblem } from './single-sign-on';

function readOptions(value: unknown): SignInOptions {
  const json = isJsonObject(value) ? value : {};
  const sso = isJsonObject(json.singleSignOn) && typeof json.singleSignOn.name === 'string' ? { name: json.singleSignOn.name } : null;
  const demoPeople = Array.isArray(json.demoPeople)
    ? json.demoPeople.flatMap((p: unknown) =>
        isJsonObject(p) && typeof p.email === 'string' && typeof p.password === 'string' && typeof p.description === 'string'
          ? [{ email: p.email, password: p.password, description: p.description }]
          : [],
      )
    : [];
  return { password: true, passkey: json.passkey === true, singleSignOn: sso, demoPeople };
}

/** What a failed sign-in says: the server's words for a wrong password, the wait for too many. */
const failureText = (error: unknown): string =>
  ownApiFailureText(error, { throttled: 'Too many failed sign-ins.', refused: 'That e-mail address and password do not match.' });

export default function SignInPage({ onSignedIn, ended = false }: { onSignedIn: (signedIn: SignedIn) => void; ended?: boolean }) {
  const options = useQuery({
    queryKey: ['sign-in-options'],
    queryFn: async ({ signal }) => readOptions(await callOwnApi(ACCESS_PATHS.signIn, {}, signal)),
    staleTime: Infinity,
  });
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  /** After the right password, when the account needs its passkey too (`setUp`: it has none yet). */
  const [secondFactor, setSecondFactor] = useState<{ setUp: boolean } | null>(null);
  const emailRef = useRef<HTMLInputElement>(null);
  const problemRef = useRef<HTMLDivElement>(null);
  // The page is there only to sign in: the first field takes the keyboard's focus.
  useEffect(() => emailRef.current?.focus(), []);
  useEffect(() => warmNextScreen(window.location.pathname), []);
  // A refusal takes the focus: the button pressed was disabled while it waited, which dropped the focus to
  // the page, and the reason is what the person needs next.
  useEffect(() => {
    if (problem) problemRef.current?.focus();
  }, [problem]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      const answer = await callOwnApi(ACCESS_PATHS.signInPassword, {
        method: 'POST',
        body: { email, password },
        answer: signInAnswerReader,
      });
      if (answer.result === 'signed-in') onSignedIn(answer);
      else setSecondFactor({ setUp: answer.setUp === true });
      setPassword('');
    } catch (error) {
      setProblem(failureText(error));
      setPassword('');
    } finally {
      setBusy(false);
    }
  };

  /** A passkey alone: the browser offers the passkeys it holds for this site; no e-mail address needed. */
  const signInWithPasskey = async () => {
    if (busy) return;
    setBusy(true);
    setProblem(null);
    try {
      const options = await callOwnApi(ACCESS_PATHS.passkeySignInOptions, { method: 'POST' });
      // The passkey code (and SimpleWebAuthn's) loads when a passkey is used, not with the page.
      const { choosePasskey } = await import('@/lib/passkeys');
      const response = await choosePasskey(options);
      const answer = await callOwnApi(ACCESS_PATHS.passkeySignIn, { method: 'POST', body: { response }, answer: signInAnswerReader });
      if (answer.result === 'signed-in') onSignedIn(answer);
    } catch (error) {
      const { passkeyProblem } = await import('@/lib/passkeys');
      setProblem(passkeyProblem(error) ?? failureText(error));
    } finally {
      setBusy(false);
    }
  };

  const demoPeople = options.data?.demoPeople ?? [];
  return (
    <Center mih="100vh" p="md" component="main">
      <Stack w="100%" maw={420} gap="lg">
        <Stack gap={4}>
          <Text fw={700} fz="lg">
            site-admin
          </Text>
          <Title order={1} fz="h2">
            Sign in
          </Title>
          {ended ? <Text c="dimmed">Your session has ended. Sign in again to carry on where you were.</Text> : null}
        </Stack>
        <SingleSignOnProblem />
        {secondFactor ? (
          <div className={classes.card}>
            <Suspense fallback={<Loader aria-label="Loading the passkey step" />}>
              <SecondFactorStep
                setUp={secondFactor.setUp}
                onSignedIn={onSignedIn}
                describeError={failureText}
                onStartAgain={(why) => {
                  setSecondFactor(null);
                  setProblem(why);
                }}
              />
            </Suspense>
          </div>
        ) : (
          <div className={classes.card}>
            <form onSubmit={(event) => void submit(event)} noValidate aria-label="Sign in with your password">
              <Stack>
                {problem ? (
                  <Alert ref={problemRef} tabIndex={-1} color="red" role="alert" title="Not signed in">
                    {problem}
                  </Alert>
                ) : null}
                <TextInput
                  ref={emailRef}
                  label="E-mail address"
                  type="email"
                  autoComplete="username"
                  required
                  value={email}
                  onChange={(event) => setEmail(event.currentTarget.value)}
                  data-autofocus
                />
                <PasswordInput
                  label="Password"
                  autoComplete="current-password"
                  required
                  value={password}
                  onChange={(event) => setPassword(event.currentTarget.value)}
                />
                <Button type="submit" loading={busy} fullWidth>
                  Sign in
                </Button>
                {options.data?.passkey ? (
                  <>
                    <Divider label="or" labelPosition="center" />
                    <Button type="button" variant="default" fullWidth disabled={busy} onClick={() => void signInWithPasskey()}>
                      Sign in with a passkey
                    </Button>
                  </>
                ) : null}
              </Stack>
            </form>
          </div>
        )}
        {!secondFactor && options.data?.singleSignOn ? <SingleSignOnButton name={options.data.singleSignOn.name} /> : null}
        {options.isError ? (
          <Text size="sm" c="dimmed">
            Other ways to sign in could not be loaded: {describeFailure(classifyApiError(options.error))}
          </Text>
        ) : null}
        {demoPeople.length > 0 ? (
          <div className={classes.card}>
            <Stack gap="xs">
              <Divider label="Demo people" labelPosition="left" />
              <Text size="sm">This is a demo on sandbox data. Sign in as one of these people to see what each role may do:</Text>
              {/* A plain list: Mantine's Table would bring its scroll area (and floating-ui) onto the sign-in page. */}
              <ul className={classes.people}>
                {demoPeople.map((person) => (
                  <li key={person.email} className={classes.person}>
                    <div>
                      <Text size="sm" fw={600}>
                        {person.email}
                      </Text>
                      <Text size="xs" c="dimmed">
                        {person.description} · password <code>{person.password}</code>
                      </Text>
                    </div>
                    <Anchor
                      component="button"
                      type="button"
                      size="sm"
                      // Three of these: each named for whom it fills in, after the word it shows.
                      aria-label={`Use ${person.email}`}
                      onClick={() => {
                        setEmail(person.email);
                        setPassword(person.password);
                        emailRef.current?.focus();
                      }}
                    >
                      Use
                    </Anchor>
                  </li>
                ))}
              </ul>
            </Stack>
          </div>
        ) : null}
      </Stack>
    </Center>
  );
}
