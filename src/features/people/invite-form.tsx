/**
 * Inviting a person: their e-mail address (their sign-in name), their name and their roles. The answer is
 * a one-time link for the owner to send on.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Group, Stack, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import * as z from 'zod/mini';
import type { InvitedView } from '@/contract/people';
import { inviteBodySchema } from '@/contract/people';
import { failureMessage, serverFieldErrors } from '@/lib/server-field-errors';
import { GrantsMatrix } from './grants-matrix';
import { grantsFromMatrix, matrixFromGrants, type GrantMatrix } from './grants-matrix-model';
import { peopleQuery } from '@/lib/people-query';
import { invitePerson } from './people-api';

const inviteFormSchema = z.strictObject({
  email: inviteBodySchema.shape.email,
  displayName: inviteBodySchema.shape.displayName,
  matrix: z.record(z.string(), z.enum(['none', 'owner', 'editor', 'support'])),
});
type InviteValues = { email: string; displayName: string; matrix: GrantMatrix };

export function InviteForm({
  sites,
  onInvited,
  onCancel,
}: {
  sites: readonly { id: string; name: string }[];
  onInvited: (invited: InvitedView) => void;
  onCancel: () => void;
}) {
  const queryClient = useQueryClient();
  const siteIds = sites.map((site) => site.id);
  const form = useForm<InviteValues>({
    resolver: zodResolver(inviteFormSchema),
    defaultValues: { email: '', displayName: '', matrix: matrixFromGrants([], siteIds) },
  });
  const invite = useMutation({
    mutationFn: (values: InviteValues) =>
      invitePerson({ email: values.email, displayName: values.displayName, grants: grantsFromMatrix(values.matrix, siteIds) }),
    onSuccess: async (invited) => {
      await queryClient.invalidateQueries({ queryKey: peopleQuery.queryKey });
      onInvited(invited);
    },
    onError: (error) => {
      const fields = serverFieldErrors(error, ['email', 'displayName'] as const);
      for (const [field, message] of Object.entries(fields) as ['email' | 'displayName', string][]) form.setError(field, { message });
    },
  });
  const { errors } = form.formState;
  const fieldError = invite.isError && Object.keys(serverFieldErrors(invite.error, ['email', 'displayName'] as const)).length > 0;
  return (
    <form onSubmit={(event) => void form.handleSubmit((values) => invite.mutate(values))(event)} noValidate aria-label="Invite a person">
      <Stack gap="sm">
        <TextInput
          label="E-mail address"
          description="They sign in with it"
          type="email"
          autoComplete="off"
          required
          data-autofocus
          error={errors.email?.message}
          {...form.register('email')}
        />
        <TextInput label="Name" autoComplete="off" required error={errors.displayName?.message} {...form.register('displayName')} />
        <Controller
          control={form.control}
          name="matrix"
          render={({ field }) => <GrantsMatrix name="invite" sites={sites} value={field.value} onChange={field.onChange} />}
        />
        {invite.isError && !fieldError ? (
          <Alert color="red" role="alert" title="Not invited">
            {failureMessage(invite.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button variant="default" onClick={onCancel}>
            Cancel
          </Button>
          <Button type="submit" loading={invite.isPending}>
            Invite and make a link
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
