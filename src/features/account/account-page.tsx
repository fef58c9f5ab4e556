/**
 * Your account: your name, your roles, your password, your passkeys and where you are signed in. Any
 * person signed in may open it; the local demo has no accounts and says so.
 */
import { PasskeysSection } from './passkeys-section';
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Badge, Button, Card, Group, Loader, Stack, Text, TextInput, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useMemo } from 'react';
import { useForm } from 'react-hook-form';
import { describeGrant, nameBodySchema, type AccountView } from '@/contract/people';
import { failureMessage, serverFieldErrors } from '@/lib/server-field-errors';
import { useSite } from '@/lib/site-context';
import { accountQuery, renameSelf } from './account-api';
import { PasswordForm } from './password-form';
import { SessionList } from './session-list';

/** NIST SP 800-63B-4's minimums, as the server's rules apply them (password-policy.ts). */
const MIN_LENGTH_ALONE = 15;
const MIN_LENGTH_WITH_SECOND_FACTOR = 8;

function NameForm({ displayName }: { displayName: string }) {
  const queryClient = useQueryClient();
  const { onMeChanged } = useSite();
  const form = useForm<{ displayName: string }>({ resolver: zodResolver(nameBodySchema), defaultValues: { displayName } });
  const { reset } = form;
  useEffect(() => reset({ displayName }), [displayName, reset]);
  const rename = useMutation({
    mutationFn: (values: { displayName: string }) => renameSelf(values.displayName),
    onSuccess: async () => {
      await queryClient.invalidateQueries({ queryKey: accountQuery.queryKey });
      // The header names the person: it asks again.
      onMeChanged();
    },
    onError: (error) => {
      const { displayName: message } = serverFieldErrors(error, ['displayName'] as const);
      if (message) form.setError('displayName', { message });
    },
  });
  const error = form.formState.errors.displayName?.message;
  return (
    <form onSubmit={(event) => void form.handleSubmit((values) => rename.mutate(values))(event)} noValidate aria-label="Your name">
      <Group align="flex-start" gap="sm" wrap="wrap">
        <TextInput
          label="Name"
          description="How others see you here"
          autoComplete="name"
          maw={360}
          w="100%"
          error={error}
          {...form.register('displayName')}
        />
        <Button type="submit" mt={{ base: 0, xs: 42 }} loading={rename.isPending} variant="default">
          Save name
        </Button>
      </Group>
      {rename.isError && !error ? (
        <Text size="sm" c="red" role="alert" mt="xs">
          {failureMessage(rename.error)}
        </Text>
      ) : null}
      {rename.isSuccess && !form.formState.isDirty ? (
        <Text size="sm" c="teal" role="status" mt="xs">
          Saved.
        </Text>
      ) : null}
    </form>
  );
}

function Account({ account }: { account: AccountView }) {
  const { sites } = useSite();
  const queryClient = useQueryClient();
  const siteNames = useMemo(() => new Map(sites.map((site) => [site.id, site.name])), [sites]);
  return (
    <>
      <Card withBorder padding="md" component="section" aria-labelledby="account-you">
        <Title order={2} size="h4" id="account-you" mb="xs">
          You
        </Title>
        <Stack gap="md">
          <div>
            <Text size="sm" fw={500}>
              E-mail address (you sign in with it)
            </Text>
            <Text style={{ overflowWrap: 'anywhere' }}>{account.email}</Text>
          </div>
          <NameForm displayName={account.displayName} />
          <div>
            <Text size="sm" fw={500} id="account-roles">
              Your roles
            </Text>
            {account.grants.length === 0 ? (
              <Text c="dimmed">None yet: ask an owner of site-admin for a role.</Text>
            ) : (
              <Group gap="xs" mt={4} aria-labelledby="account-roles" role="list">
                {account.grants.map((grant) => (
                  <Badge key={grant.siteId} variant="light" role="listitem" tt="none" size="lg">
                    {describeGrant(grant, siteNames)}
                  </Badge>
                ))}
              </Group>
            )}
            <Text size="xs" c="dimmed" mt={4}>
              Only an owner can change them.
            </Text>
          </div>
        </Stack>
      </Card>

      <Card withBorder padding="md" component="section" aria-labelledby="account-password">
        <Title order={2} size="h4" id="account-password" mb={4}>
          Password
        </Title>
        <Text size="sm" c="dimmed" mb="sm">
          {account.secondFactorRequired
            ? 'You confirm each sign-in with a passkey too, so your password may be as short as 8 characters.'
            : 'Your password is the only thing between others and your sign-in: at least 15 characters.'}{' '}
          Changing it signs you out everywhere else.
        </Text>
        <PasswordForm
          name={account.displayName}
          email={account.email}
          minLength={account.secondFactorRequired ? MIN_LENGTH_WITH_SECOND_FACTOR : MIN_LENGTH_ALONE}
          onChanged={() => void queryClient.invalidateQueries({ queryKey: accountQuery.queryKey })}
        />
      </Card>

      <Card withBorder padding="md">
        <PasskeysSection />
      </Card>

      <Card withBorder padding="md" component="section" aria-labelledby="account-sessions">
        <Title order={2} size="h4" id="account-sessions" mb={4}>
          Where you are signed in
        </Title>
        <SessionList sessions={account.sessions} />
      </Card>
    </>
  );
}

export function AccountPage() {
  const { me } = useSite();
  const account = useQuery({ ...accountQuery, enabled: me.kind === 'person' });
  return (
    <Stack gap="lg" maw={900}>
      <Title order={1}>Your account</Title>
      {me.kind === 'demo' ? (
        <Alert color="blue" title="No accounts in the local demo">
          Nobody signs in to this local demo, so there is no account to show. Once a person is added (<code>npm run people -- add</code>),
          everyone signs in as themselves and finds their account here.
        </Alert>
      ) : account.isPending ? (
        <Group gap="xs" aria-busy="true">
          <Loader size="sm" aria-label="Loading your account" />
          <Text c="dimmed">Loading your account…</Text>
        </Group>
      ) : account.isError ? (
        <Alert color="red" role="alert" title="Your account could not be loaded">
          <Stack gap="xs">
            <Text size="sm">{failureMessage(account.error)}</Text>
            <Button size="xs" w="fit-content" onClick={() => void account.refetch()}>
              Try again
            </Button>
          </Stack>
        </Alert>
      ) : (
        <Account account={account.data} />
      )}
    </Stack>
  );
}
