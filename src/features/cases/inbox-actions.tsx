/**
 * Bulk actions on the ticked rows: assign, set a status, mark seen. Each is one change of the team's work
 * (one PATCH, whatever the number of cases), shown at once in every row (optimistic) and put back as it
 * was, with the reason, when the server refuses it or cannot be reached.
 */
import { Button, Select, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { CASE_STATUS_LABELS, CASE_STATUSES, type WorkChange } from '@/contract/case-work';
import { ownApiFailureText } from '@/lib/own-api-failure';
import { useSite } from '@/lib/site-context';
import { applyWorkChange, assigneesQueryOptions, sendWorkChange, storeWorkAnswer } from './inbox-query';
import classes from './inbox.module.css';

/** The Select's value for "nobody": a person's id is never empty. */
const NOBODY = '';

interface ActionsProps {
  form: string;
  selected: ReadonlySet<string>;
  onClear: () => void;
  /** At most this many cases in one change. */
  limit: number;
}

/** What a change did, in words: "Assigned 3 cases to Ann Lee". */
function doneText(change: WorkChange, names: ReadonlyMap<string, string>): string {
  const n = change.cases.length;
  const cases = `${n.toLocaleString()} ${n === 1 ? 'case' : 'cases'}`;
  if (change.status !== undefined) return `Set ${cases} to ${CASE_STATUS_LABELS[change.status]}.`;
  if (change.assignee !== undefined)
    return change.assignee === null ? `Unassigned ${cases}.` : `Assigned ${cases} to ${names.get(change.assignee) ?? 'them'}.`;
  return `Marked ${cases} seen.`;
}

export function InboxActions({ form, selected, onClear, limit }: ActionsProps) {
  const { site } = useSite();
  const client = useQueryClient();
  const count = selected.size;
  const [wantsAssignees, setWantsAssignees] = useState(false);
  // The people are asked for once someone opens the Assign list (or has ticked a row): not with every inbox.
  const assignees = useQuery({ ...assigneesQueryOptions(site.id), enabled: wantsAssignees || count > 0 });
  const names = useMemo(() => new Map((assignees.data?.people ?? []).map((person) => [person.id, person.name])), [assignees.data]);
  const [outcome, setOutcome] = useState<{ ok: boolean; text: string } | null>(null);
  const mutation = useMutation({
    mutationFn: (change: WorkChange) => sendWorkChange(site.id, form, change),
    onMutate: (change) => {
      setOutcome(null);
      return { undo: applyWorkChange(client, site.id, form, change, names) };
    },
    onError: (error, _change, context) => {
      context?.undo();
      setOutcome({ ok: false, text: `Nothing was changed: ${ownApiFailureText(error)}` });
    },
    onSuccess: (answer, change) => {
      storeWorkAnswer(client, site.id, form, answer);
      setOutcome({ ok: true, text: doneText(change, names) });
    },
  });
  const tooMany = count > limit;
  const disabled = count === 0 || tooMany || mutation.isPending;
  const send = (change: Omit<WorkChange, 'cases'>) => mutation.mutate({ ...change, cases: [...selected] });

  return (
    <div className={classes.bar} role="group" aria-label="Work on the selected cases">
      <Text size="sm" fw={600} aria-live="polite" miw="7rem">
        {count === 0 ? 'None selected' : `${count.toLocaleString()} selected`}
      </Text>
      <Select
        label="Assign to"
        placeholder={count === 0 ? 'Select cases first' : 'Pick a person'}
        size="xs"
        data={[
          { value: NOBODY, label: 'Nobody' },
          ...(assignees.data?.people ?? []).map((person) => ({ value: person.id, label: person.name })),
        ]}
        value={null}
        onDropdownOpen={() => setWantsAssignees(true)}
        onChange={(value) => {
          if (value !== null) send({ assignee: value === NOBODY ? null : value });
        }}
        disabled={disabled}
        nothingFoundMessage={assignees.isError ? 'The people could not be read' : 'Loading…'}
        w={{ base: '100%', xs: 200 }}
        comboboxProps={{ withinPortal: true }}
      />
      <Select
        label="Set status"
        placeholder={count === 0 ? 'Select cases first' : 'Pick a status'}
        size="xs"
        data={CASE_STATUSES.map((status) => ({ value: status, label: CASE_STATUS_LABELS[status] }))}
        value={null}
        onChange={(value) => {
          const status = CASE_STATUSES.find((known) => known === value);
          if (status) send({ status });
        }}
        disabled={disabled}
        w={{ base: '100%', xs: 200 }}
        comboboxProps={{ withinPortal: true }}
      />
      <Button variant="default" size="xs" disabled={disabled} onClick={() => send({ seen: true })}>
        Mark seen
      </Button>
      <Button variant="subtle" size="xs" disabled={count === 0} onClick={onClear}>
        Clear selection
      </Button>
      {tooMany && (
        <Text size="sm" role="alert">
          At most {limit.toLocaleString()} cases can be changed at once.
        </Text>
      )}
      {outcome && (
        <Text size="sm" role={outcome.ok ? 'status' : 'alert'} fw={outcome.ok ? undefined : 600}>
          {outcome.text}
        </Text>
      )}
    </div>
  );
}
