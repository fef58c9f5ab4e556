/**
 * What each role may do, per site: the roles' fixed capabilities in words, and a switch per site and role
 * for what owners may adjust (exporting cases, personal data in bulk). Each switch saves at once; the
 * server enforces the result at each person's next request. A switch put back to what the site inherits
 * removes the site's own setting (role-capabilities-model.ts).
 */
import { Alert, Button, Group, Loader, Stack, Switch, Table, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ADJUSTABLE_ROLES, ALL_SITES, type AdjustableRole } from '@/contract/access';
import { ROLE_LABELS } from '@/contract/people-paths';
import type { RoleCapabilityChange } from '@/contract/people';
import { failureMessage } from '@/lib/server-field-errors';
import { changeRoleCapability, roleCapabilitiesQuery } from './people-api';
import { changeTo, settingOf, type SettingSource } from './role-capabilities-model';

const sourceWords = (source: SettingSource, everySite: boolean): string =>
  source === 'default' ? 'Default' : source === 'every-site' ? 'As on every site' : everySite ? 'Changed' : 'Changed for this site';
const PLURAL: Record<AdjustableRole, string> = { editor: 'Editors', support: 'Support staff' };

const siteWords = (site: { id: string; name: string }) => (site.id === ALL_SITES ? 'every site' : site.name);

export function RoleCapabilities() {
  const queryClient = useQueryClient();
  const view = useQuery(roleCapabilitiesQuery);
  const save = useMutation({
    mutationFn: changeRoleCapability,
    onSuccess: (answer) => queryClient.setQueryData(roleCapabilitiesQuery.queryKey, answer),
  });

  if (view.isPending) {
    return (
      <Group gap="xs" aria-busy="true">
        <Loader size="xs" aria-label="Loading what each role may do" />
        <Text size="sm" c="dimmed">
          Loading what each role may do…
        </Text>
      </Group>
    );
  }
  if (view.isError) {
    return (
      <Alert color="red" role="alert" title="What each role may do could not be loaded">
        <Stack gap="xs">
          <Text size="sm">{failureMessage(view.error)}</Text>
          <Button size="xs" w="fit-content" onClick={() => void view.refetch()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }

  const { overrides } = view.data;
  const rows = [{ id: ALL_SITES, name: 'Every site' }, ...view.data.sites];
  const failed = save.isError ? save.variables : undefined;
  const siteOf = (change: RoleCapabilityChange) =>
    rows.find((row) => row.id === change.siteId) ?? { id: change.siteId, name: change.siteId };
  const saved = save.isSuccess ? save.variables : undefined;

  return (
    <Stack gap="xs">
      <Text size="sm" c="dimmed">
        Every role may look up cases; owners and editors may create products. Exporting a list of cases puts personal data in bulk into a
        file, so owners choose who may, per site: by default owners and editors, not support. A change applies at each person’s next
        request.
      </Text>
      <Table.ScrollContainer minWidth={300}>
        <Table verticalSpacing={6} horizontalSpacing={8} withRowBorders aria-label="Who may export cases, by site">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Export cases on</Table.Th>
              <Table.Th scope="col">{ROLE_LABELS.owner}</Table.Th>
              {ADJUSTABLE_ROLES.map((role) => (
                <Table.Th key={role} scope="col">
                  {ROLE_LABELS[role]}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((site) => (
              <Table.Tr key={site.id}>
                <Table.Th scope="row" fw={site.id === ALL_SITES ? 700 : 500}>
                  <Text size="sm" fw="inherit">
                    {site.name}
                  </Text>
                </Table.Th>
                <Table.Td>
                  <Text size="sm" c="dimmed">
                    Always
                  </Text>
                </Table.Td>
                {ADJUSTABLE_ROLES.map((role) => {
                  const setting = settingOf(overrides, site.id, role, 'export');
                  const label = `${PLURAL[role]} may export cases on ${siteWords(site)}`;
                  return (
                    <Table.Td key={role}>
                      <Switch
                        size="sm"
                        checked={setting.allowed}
                        // Not disabled while a change saves: a disabled switch would drop the keyboard's focus.
                        aria-busy={save.isPending && save.variables.siteId === site.id && save.variables.role === role}
                        aria-label={label}
                        description={sourceWords(setting.source, site.id === ALL_SITES)}
                        onChange={(event) => {
                          if (!save.isPending) save.mutate(changeTo(overrides, site.id, role, 'export', event.currentTarget.checked));
                        }}
                      />
                    </Table.Td>
                  );
                })}
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {failed ? (
        <Alert color="red" role="alert" title="Not changed" withCloseButton onClose={() => save.reset()} closeButtonLabel="Dismiss">
          <Text size="sm">
            Whether {PLURAL[failed.role].toLowerCase()} may export cases on {siteWords(siteOf(failed))} stays as it was:{' '}
            {failureMessage(save.error)}
          </Text>
        </Alert>
      ) : null}
      {saved ? (
        <Text size="sm" c="teal" role="status">
          Saved: {PLURAL[saved.role].toLowerCase()} {settingOf(overrides, saved.siteId, saved.role, 'export').allowed ? 'may' : 'may not'}{' '}
          export cases on {siteWords(siteOf(saved))}.
        </Text>
      ) : null}
    </Stack>
  );
}
