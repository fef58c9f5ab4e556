/**
 * Changing your password: the current one, and a new one with a strength meter. The server's rules decide;
 * its reasons are shown beside the field they concern. Other sessions end when it changes.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, PasswordInput, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { useForm, useWatch } from 'react-hook-form';
import { passwordChangeBodySchema } from '@/contract/people';
import { PasswordStrength } from '@/lib/password-strength';
import { failureMessage, serverFieldErrors } from '@/lib/server-field-errors';
import { changePassword } from './account-api';

type Values = { currentPassword: string; newPassword: string };

export function PasswordForm({
  name,
  email,
  minLength,
  onChanged,
}: {
  name: string;
  email: string;
  minLength: number;
  onChanged: () => void;
}) {
  const form = useForm<Values>({
    resolver: zodResolver(passwordChangeBodySchema),
    defaultValues: { currentPassword: '', newPassword: '' },
  });
  const newPassword = useWatch({ control: form.control, name: 'newPassword' });
  const change = useMutation({
    mutationFn: changePassword,
    onSuccess: () => {
      form.reset();
      onChanged();
    },
    onError: (error) => {
      const fields = serverFieldErrors(error, ['currentPassword', 'newPassword'] as const);
      // The first field refused takes the focus (the button pressed was disabled while it waited).
      const refused = Object.entries(fields) as [keyof Values, string][];
      refused.forEach(([field, message], i) => form.setError(field, { message }, { shouldFocus: i === 0 }));
    },
  });
  const fieldErrors = change.isError ? serverFieldErrors(change.error, ['currentPassword', 'newPassword'] as const) : {};
  const otherFailure = change.isError && Object.keys(fieldErrors).length === 0;
  const { errors } = form.formState;
  // A failure of no field's (the server unreachable, say) takes the focus in its alert.
  const failureRef = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (otherFailure) failureRef.current?.focus();
  }, [otherFailure, change.error]);

  return (
    <form
      onSubmit={(event) => void form.handleSubmit((values) => change.mutate(values))(event)}
      noValidate
      aria-label="Change your password"
    >
      <Stack gap="sm" maw={460}>
        <PasswordInput
          label="Current password"
          autoComplete="current-password"
          required
          error={errors.currentPassword?.message}
          // Mantine marks its password field data-invalid only; assistive technology reads aria-invalid.
          aria-invalid={errors.currentPassword ? true : undefined}
          {...form.register('currentPassword')}
        />
        <PasswordInput
          label="New password"
          description={`At least ${minLength} characters. A few unrelated words with spaces make a good one.`}
          autoComplete="new-password"
          required
          error={errors.newPassword?.message}
          aria-invalid={errors.newPassword ? true : undefined}
          {...form.register('newPassword')}
        />
        <PasswordStrength password={newPassword} userInputs={[name, email, 'site-admin']} minLength={minLength} />
        {otherFailure ? (
          <Alert ref={failureRef} tabIndex={-1} color="red" role="alert" title="Your password was not changed">
            {failureMessage(change.error)}
          </Alert>
        ) : null}
        {change.isSuccess ? (
          <Text size="sm" c="teal" role="status">
            Your password has been changed.{' '}
            {change.data.ended > 0
              ? `${change.data.ended} other ${change.data.ended === 1 ? 'session was' : 'sessions were'} signed out.`
              : 'You were signed in nowhere else.'}
          </Text>
        ) : null}
        <Button type="submit" loading={change.isPending} w="fit-content">
          Change password
        </Button>
      </Stack>
    </form>
  );
}
