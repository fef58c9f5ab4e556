/**
 * A person's roles as a matrix: a row for every site at once and one for each site, a column for each
 * role and one for none. Each row is a group of radio buttons (arrow keys move within it, Tab to the next
 * row). A role on every site adds to the roles on each.
 */
import { Radio, Table, Text, Tooltip } from '@mantine/core';
import { ALL_SITES, ROLES } from '@/contract/access';
import { ROLE_DESCRIPTIONS, ROLE_LABELS } from '@/contract/people-paths';
import type { Choice, GrantMatrix } from './grants-matrix-model';

const CHOICES: readonly Choice[] = ['none', ...ROLES];
const CHOICE_LABELS: Record<Choice, string> = { none: 'No role', ...ROLE_LABELS };

export function GrantsMatrix({
  sites,
  value,
  onChange,
  name,
  disabled = false,
}: {
  sites: readonly { id: string; name: string }[];
  value: GrantMatrix;
  onChange: (next: GrantMatrix) => void;
  /** Unique on the page: the radio groups' names. */
  name: string;
  disabled?: boolean;
}) {
  const rows = [{ id: ALL_SITES, name: 'Every site' }, ...sites];
  return (
    <Table.ScrollContainer minWidth={340}>
      <Table verticalSpacing={6} horizontalSpacing={6} aria-label="Roles by site" withRowBorders>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Site</Table.Th>
            {CHOICES.map((choice) => (
              <Table.Th key={choice} scope="col" ta="center">
                {choice === 'none' ? (
                  CHOICE_LABELS[choice]
                ) : (
                  <Tooltip label={ROLE_DESCRIPTIONS[choice]} withArrow multiline w={200}>
                    <span>{CHOICE_LABELS[choice]}</span>
                  </Tooltip>
                )}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.id} role="radiogroup" aria-label={`Role on ${row.name === 'Every site' ? 'every site' : row.name}`}>
              <Table.Th scope="row" fw={row.id === ALL_SITES ? 700 : 500}>
                <Text size="sm" fw="inherit">
                  {row.name}
                </Text>
              </Table.Th>
              {CHOICES.map((choice) => (
                <Table.Td key={choice} ta="center">
                  <Radio
                    name={`${name}-${row.id}`}
                    value={choice}
                    checked={(value[row.id] ?? 'none') === choice}
                    onChange={() => onChange({ ...value, [row.id]: choice })}
                    disabled={disabled}
                    aria-label={`${CHOICE_LABELS[choice]} on ${row.id === ALL_SITES ? 'every site' : row.name}`}
                    styles={{ body: { justifyContent: 'center' } }}
                  />
                </Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Text size="xs" c="dimmed" mt={4}>
        Owner: everything on the site; an owner of every site also manages people. Editor: {ROLE_DESCRIPTIONS.editor.toLowerCase()}.
        Support: {ROLE_DESCRIPTIONS.support.toLowerCase()}.
      </Text>
    </Table.ScrollContainer>
  );
}
