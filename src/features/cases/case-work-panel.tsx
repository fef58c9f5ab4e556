/**
 * The team's work on the case on screen, beside it in the case viewer: its status, who it is assigned to,
 * and its notes. Opening a case marks it seen for the person. Loaded with its own chunk once a case is
 * shown (zod and the contract of the work are not part of the Cases page's first paint).
 */
import { Alert, Button, NativeSelect, Skeleton, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useId, useMemo, useRef } from 'react';
import { CASE_STATUS_LABELS, CASE_STATUSES, type CaseStatus, type CaseWorkDetail, type Note, type WorkAnswer } from '@/contract/case-work';
import { ownApiFailureText } from '@/lib/own-api-failure';
import { useSite } from '@/lib/site-context';
import { addNote, assigneesQuery, caseWorkKey, caseWorkQuery, changeCaseWork, editNote, type CaseRef } from './case-work-api';
import { CaseNotes } from './case-notes';
import hidden from '@/lib/visually-hidden.module.css';
import classes from './cases.module.css';

/** The assignee select's value for nobody (a person's id is a UUID, never this). */
const NOBODY = 'nobody';
const STATUS_OPTIONS = CASE_STATUSES.map((status) => ({ value: status, label: CASE_STATUS_LABELS[status] }));

export interface CaseWorkPanelProps {
  form: string;
  caseId: string;
}

export function CaseWorkPanel({ form, caseId }: CaseWorkPanelProps) {
  const { site, me } = useSite();
  const ref: CaseRef = useMemo(() => ({ site: site.id, form, case: caseId }), [site.id, form, caseId]);
  const queryClient = useQueryClient();
  const detail = useQuery(caseWorkQuery(ref));
  const assignees = useQuery(assigneesQuery(site.id));
  const titleId = useId();

  const update = (change: (old: CaseWorkDetail) => CaseWorkDetail) =>
    queryClient.setQueryData<CaseWorkDetail>(caseWorkKey(ref), (old) => (old ? change(old) : old));
  const takeWork = (answer: WorkAnswer) => {
    const work = answer.cases[caseId];
    if (work) update((old) => ({ ...old, work }));
  };

  const change = useMutation({
    mutationFn: (what: { status?: CaseStatus; assignee?: string | null }) => changeCaseWork(ref, what),
    onSuccess: takeWork,
  });
  const seen = useMutation({ mutationFn: () => changeCaseWork(ref, { seen: true }), onSuccess: takeWork });
  // Through the query client's changes, so a session that ended shows the sign-in page as every change does.
  const add = useMutation({
    mutationFn: (text: string) => addNote(ref, { text }),
    onSuccess: (note) => update((old) => ({ notes: [...old.notes, note], work: { ...old.work, notes: old.work.notes + 1 } })),
  });
  const edit = useMutation({
    mutationFn: ({ note, text }: { note: Note; text: string }) => editNote(ref, note.id, { text }),
    onSuccess: (edited) => update((old) => ({ ...old, notes: old.notes.map((one) => (one.id === edited.id ? edited : one)) })),
  });

  // Opening the case marks it seen for this person, once per case shown (the panel is keyed by case).
  const markedSeen = useRef(false);
  const { mutate: markSeen } = seen;
  useEffect(() => {
    if (markedSeen.current) return;
    markedSeen.current = true;
    markSeen();
  }, [markSeen]);

  const myId = me.kind === 'person' ? me.id : null;
  const mine = (note: Note) => note.author.id === myId;

  let body;
  if (detail.isPending) {
    body = (
      <Stack gap="xs" aria-busy="true">
        <span role="status" className={hidden.visuallyHidden}>
          Loading the team’s work on this case…
        </span>
        <Skeleton height={36} />
        <Skeleton height={36} />
        <Skeleton height={64} />
      </Stack>
    );
  } else if (detail.isError) {
    body = (
      <Alert color="red" title="The team’s work could not be loaded" role="alert">
        <Stack gap="xs">
          <Text size="sm">{ownApiFailureText(detail.error)}</Text>
          <Button size="compact-sm" variant="light" onClick={() => void detail.refetch()} loading={detail.isFetching}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  } else {
    const { work, notes } = detail.data;
    const pending = change.isPending ? change.variables : undefined;
    const status = pending?.status ?? work.status;
    const assigneeId = pending && pending.assignee !== undefined ? pending.assignee : (work.assignee?.id ?? null);
    const people = assignees.data?.people ?? [];
    // Someone who may no longer be assigned (their role taken away) still shows as the one assigned.
    const options = [
      { value: NOBODY, label: 'Nobody' },
      ...people.map((person) => ({ value: person.id, label: person.name })),
      ...(work.assignee && !people.some((person) => person.id === work.assignee?.id)
        ? [{ value: work.assignee.id, label: work.assignee.name }]
        : []),
    ];
    body = (
      <Stack gap="sm">
        {/* Native selects: every browser's own keyboard and screen reader handling, and nothing more to load. */}
        <NativeSelect
          label="Status"
          data={STATUS_OPTIONS}
          value={status}
          disabled={change.isPending}
          onChange={(event) => {
            const value = event.currentTarget.value as CaseStatus;
            if (value !== work.status) change.mutate({ status: value });
          }}
        />
        <NativeSelect
          label="Assigned to"
          data={options}
          value={assigneeId ?? NOBODY}
          disabled={change.isPending}
          description={
            assignees.isError ? `The people who may be assigned could not be loaded: ${ownApiFailureText(assignees.error)}` : undefined
          }
          onChange={(event) => {
            const value = event.currentTarget.value;
            const next = value === NOBODY ? null : value;
            if (next !== (work.assignee?.id ?? null)) change.mutate({ assignee: next });
          }}
        />
        {change.isError && (
          <Text size="sm" c="red" role="alert">
            Not changed: {ownApiFailureText(change.error)}
          </Text>
        )}
        {work.updatedAt !== null && work.updatedBy !== null && (
          <Text size="xs" className={classes.muted}>
            Last changed by {work.updatedBy}
          </Text>
        )}
        <Title order={3} size="h5">
          Notes{notes.length > 0 ? ` (${notes.length})` : ''}
        </Title>
        <CaseNotes
          notes={notes}
          mine={mine}
          onAdd={(text) => add.mutateAsync(text)}
          onEdit={(note, text) => edit.mutateAsync({ note, text })}
        />
      </Stack>
    );
  }

  return (
    <Stack gap="sm" component="section" aria-labelledby={titleId}>
      <Title order={2} size="h4" id={titleId}>
        Team’s work
      </Title>
      {body}
    </Stack>
  );
}
