/**
 * The page a one-time link opens (/invite#token): an invitation to site-admin, or a reset. It says who the
 * link is for and lets them choose a password, with a strength meter and the server's rules; once chosen,
 * the link is used up and they are signed in. Its own chunk, outside every site's pages: the person is not
 * signed in yet. The token stays in the address's fragment, which browsers never send to a server.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Center, Loader, Paper, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import * as z from 'zod/mini';
import { PEOPLE_PATHS } from '@/contract/people-paths';
import { acceptBodySchema, linkDetailsSchema, type LinkDetails } from '@/contract/people';
import { callOwnApi } from '@/lib/api-client';
import { DateTime } from '@/lib/date-time';
import { PasswordStrength } from '@/lib/password-strength';
import { failureMessage, serverFieldErrors } from '@/lib/server-field-errors';

const passwordSchema = z.strictObject({ password: acceptBodySchema.shape.password });

function ChoosePassword({ token, details }: { token: string; details: LinkDetails }) {
  const form = useForm<{ password: string }>({ resolver: zodResolver(passwordSchema), defaultValues: { password: '' } });
  const password = useWatch({ control: form.control, name: 'password' });
  const accept = useMutation({
    mutationFn: (values: { password: string }) =>
      callOwnApi(PEOPLE_PATHS.linkAccept, { method: 'POST', body: { token, password: values.password } }),
    // Signed in: the app starts afresh on its first page, and the used link leaves the address and history.
    onSuccess: () => window.location.replace('/'),
    onError: (error) => {
      const { password: message } = serverFieldErrors(error, ['password'] as const);
      // The field takes the focus back (the button pressed was disabled while it waited).
      if (message) form.setError('password', { message }, { shouldFocus: true });
    },
  });
  const minLength = details.secondFactorRequired ? 8 : 15;
  const fieldError = form.formState.errors.password?.message;
  // A failure of no field's takes the focus in its alert.
  const otherFailure = accept.isError && !fieldError;
  const failureRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (otherFailure) failureRef.current?.focus();
  }, [otherFailure, accept.error]);
  return (
    <form
      onSubmit={(event) => void form.handleSubmit((values) => accept.mutate(values))(event)}
      noValidate
      aria-label="Choose your password"
    >
      <Stack gap="sm">
        {/* For password managers: the account the new password belongs to. */}
        <TextInput label="E-mail address (you sign in with it)" value={details.email} readOnly autoComplete="username" />
        <PasswordInput
          label="Choose a password"
          description={`At least ${minLength} characters. A few unrelated words with spaces make a good one.`}
          autoComplete="new-password"
          required
          data-autofocus
          error={fieldError}
          // Mantine marks its password field data-invalid only; assistive technology reads aria-invalid.
          aria-invalid={fieldError ? true : undefined}
          {...form.register('password')}
        />
        <PasswordStrength password={password} userInputs={[details.displayName, details.email, 'site-admin']} minLength={minLength} />
        {otherFailure ? (
          <Alert ref={failureRef} tabIndex={-1} color="red" role="alert" title="Not saved">
            {failureMessage(accept.error)}
          </Alert>
        ) : null}
        <Button type="submit" loading={accept.isPending || accept.isSuccess} fullWidth>
          Save password and sign in
        </Button>
      </Stack>
    </form>
  );
}

export default function InvitePage() {
  const token = window.location.hash.slice(1);
  const details = useQuery({
    queryKey: ['link', token],
    queryFn: ({ signal }) => callOwnApi(PEOPLE_PATHS.link, { method: 'POST', body: { token }, answer: linkDetailsSchema }, signal),
    enabled: token !== '',
    retry: false,
    staleTime: Infinity,
  });
  return (
    <Center mih="100vh" p="md" component="main">
      <Stack w="100%" maw={460} gap="lg">
        <Text fw={700} fz="lg">
          site-admin
        </Text>
        {token === '' ? (
          <Alert color="red" title="No link here" role="alert">
            This page opens the one-time links that owners of site-admin make for invitations and resets, and this address carries none.
            Open the whole link you were sent.
          </Alert>
        ) : details.isPending ? (
          <Center aria-busy="true">
            <Loader aria-label="Checking your link" />
          </Center>
        ) : details.isError ? (
          <Stack gap="sm">
            <Title order={1} fz="h2">
              This link cannot be used
            </Title>
            <Alert color="red" role="alert">
              {failureMessage(details.error)}
            </Alert>
            <Text size="sm">
              Already chose a password? <a href="/">Sign in</a>.
            </Text>
          </Stack>
        ) : (
          <>
            <Stack gap={4}>
              <Title order={1} fz="h2">
                {details.data.purpose === 'invitation'
                  ? `Welcome, ${details.data.displayName}`
                  : `A new password for ${details.data.displayName}`}
              </Title>
              <Text c="dimmed">
                {details.data.purpose === 'invitation'
                  ? 'You have been invited to site-admin. Choose the password you will sign in with.'
                  : 'Your password was reset by an owner. Choose a new one to sign in again.'}{' '}
                This link works once, until <DateTime date={new Date(details.data.expiresAt)} />.
              </Text>
            </Stack>
            <Paper withBorder p="lg" radius="md">
              <ChoosePassword token={token} details={details.data} />
            </Paper>
          </>
        )}
      </Stack>
    </Center>
  );
}
