/**
 * The owners' rule on second factors: who must confirm a password sign-in with a passkey, everyone or
 * people holding given roles. Stored here; sign-in enforces it.
 */
import { Button, Checkbox, Group, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ROLES, type Role } from '@/contract/access';
import { ROLE_LABELS } from '@/contract/people-paths';
import type { SecondFactorRule } from '@/contract/people';
import { failureMessage } from '@/lib/server-field-errors';
import { peopleQuery } from '@/lib/people-query';
import { saveSecondFactor } from './people-api';

export function SecondFactorRuleForm({ rule }: { rule: SecondFactorRule }) {
  const queryClient = useQueryClient();
  const [everyone, setEveryone] = useState(rule.everyone);
  const [roles, setRoles] = useState<Role[]>(rule.roles);
  const save = useMutation({
    mutationFn: saveSecondFactor,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: peopleQuery.queryKey }),
  });
  const changed = everyone !== rule.everyone || roles.length !== rule.roles.length || roles.some((role) => !rule.roles.includes(role));
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        save.mutate({ everyone, roles: ROLES.filter((role) => roles.includes(role)) });
      }}
      aria-label="Who must add a passkey"
    >
      <Stack gap="sm">
        <Text size="sm" c="dimmed">
          People it applies to confirm each password sign-in with a passkey; their password may then be as short as 8 characters.
        </Text>
        <Checkbox label="Everyone" checked={everyone} onChange={(event) => setEveryone(event.currentTarget.checked)} />
        <Checkbox.Group
          label="Or anyone holding one of these roles, on any site"
          value={everyone ? [...ROLES] : roles}
          onChange={(value) => setRoles(ROLES.filter((role) => value.includes(role)))}
        >
          <Group gap="md" mt={6}>
            {ROLES.map((role) => (
              <Checkbox key={role} value={role} label={ROLE_LABELS[role]} disabled={everyone} />
            ))}
          </Group>
        </Checkbox.Group>
        {save.isError ? (
          <Text size="sm" c="red" role="alert">
            {failureMessage(save.error)}
          </Text>
        ) : null}
        {save.isSuccess && !changed ? (
          <Text size="sm" c="teal" role="status">
            Saved.
          </Text>
        ) : null}
        <Button type="submit" w="fit-content" variant="default" loading={save.isPending} disabled={!changed}>
          Save rule
        </Button>
      </Stack>
    </form>
  );
}
