/**
 * A case's notes in the work panel: each with its author and time (in the person's locale), the earlier texts
 * of an edited one on request, an edit of one's own, and a new note. What was typed is never lost: when a
 * save fails, the text stays in its box and the reason is said beside it.
 */
import { Anchor, Button, Group, Stack, Text, Textarea } from '@mantine/core';
import { useId, useState, type FormEvent } from 'react';
import { NOTE_MAX_LENGTH, type Note } from '@/contract/case-work';
import { DateTime } from '@/lib/date-time';
import { formatDate } from '@/lib/format-date';
import { ownApiFailureText } from '@/lib/own-api-failure';
import classes from './cases.module.css';

const noteText = { whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' } as const;

/** A text box and its save: keeps the text whatever the outcome but success, says why a save failed. */
function NoteEditor({
  label,
  initial,
  submitLabel,
  onSave,
  onCancel,
}: {
  label: string;
  initial: string;
  submitLabel: string;
  /** Resolves once saved; throws (the fetch layer's error) when not. */
  onSave: (text: string) => Promise<unknown>;
  onCancel?: () => void;
}) {
  const [text, setText] = useState(initial);
  const [saving, setSaving] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const empty = text.trim() === '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (empty || saving) return;
    setSaving(true);
    setFailure(null);
    try {
      await onSave(text);
      if (!onCancel) setText('');
    } catch (error) {
      setFailure(`Not saved: ${ownApiFailureText(error)} Your text is still here.`);
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack component="form" gap="xs" onSubmit={(event) => void submit(event)}>
      <Textarea
        label={label}
        value={text}
        onChange={(event) => setText(event.currentTarget.value)}
        autosize
        minRows={2}
        maxRows={10}
        maxLength={NOTE_MAX_LENGTH}
        // Cancelling an edit with Escape, as a dialog would.
        onKeyDown={(event) => {
          if (event.key === 'Escape' && onCancel) onCancel();
        }}
        error={failure}
        errorProps={{ role: 'alert' }}
      />
      <Group gap="xs">
        <Button type="submit" size="compact-sm" loading={saving} disabled={empty}>
          {submitLabel}
        </Button>
        {onCancel && (
          <Button type="button" size="compact-sm" variant="subtle" onClick={onCancel} disabled={saving}>
            Cancel
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function EarlierTexts({ note }: { note: Note }) {
  const [open, setOpen] = useState(false);
  const listId = useId();
  if (note.versions.length === 0) return null;
  return (
    <>
      {/* A link-styled button: no hover fill, so its text keeps its contrast under the pointer. */}
      <Anchor
        component="button"
        type="button"
        size="xs"
        onClick={() => setOpen((was) => !was)}
        aria-expanded={open}
        aria-controls={listId}
        style={{ alignSelf: 'flex-start' }}
      >
        Edited · {open ? 'hide' : 'show'} earlier {note.versions.length === 1 ? 'text' : `texts (${note.versions.length})`}
      </Anchor>
      <Stack component="ol" gap={6} id={listId} hidden={!open} className={classes.plainList} aria-label="Earlier texts, oldest first">
        {note.versions.map((version, index) => (
          <li key={index}>
            <Text size="xs" className={classes.muted}>
              {version.by}, <DateTime date={new Date(version.at)} />
            </Text>
            <Text size="sm" style={noteText} td="line-through">
              {version.text}
            </Text>
          </li>
        ))}
      </Stack>
    </>
  );
}

export function CaseNotes({
  notes,
  mine,
  onAdd,
  onEdit,
}: {
  notes: readonly Note[];
  /** Whether the person asking wrote this note (only its author may edit it). */
  mine: (note: Note) => boolean;
  onAdd: (text: string) => Promise<unknown>;
  onEdit: (note: Note, text: string) => Promise<unknown>;
}) {
  const [editing, setEditing] = useState<string | null>(null);
  return (
    <Stack gap="sm">
      {notes.length === 0 ? (
        <Text size="sm" className={classes.muted}>
          No notes yet.
        </Text>
      ) : (
        <Stack component="ol" gap="sm" className={classes.plainList} aria-label="Notes">
          {notes.map((note) => (
            <Stack component="li" key={note.id} gap={4}>
              <Text size="xs" className={classes.muted}>
                <Text span size="xs" fw={600} inherit>
                  {note.author.name}
                </Text>
                , <DateTime date={new Date(note.createdAt)} />
                {note.versions.length > 0 && (
                  <>
                    {' '}
                    · edited <DateTime date={new Date(note.updatedAt)} />
                  </>
                )}
              </Text>
              {editing === note.id ? (
                <NoteEditor
                  label="Edit your note"
                  initial={note.text}
                  submitLabel="Save note"
                  onSave={async (text) => {
                    await onEdit(note, text);
                    setEditing(null);
                  }}
                  onCancel={() => setEditing(null)}
                />
              ) : (
                <>
                  <Text size="sm" style={noteText}>
                    {note.text}
                  </Text>
                  {mine(note) && (
                    <Anchor
                      component="button"
                      type="button"
                      size="xs"
                      onClick={() => setEditing(note.id)}
                      style={{ alignSelf: 'flex-start' }}
                      aria-label={`Edit your note of ${formatDate(new Date(note.createdAt))}`}
                    >
                      Edit
                    </Anchor>
                  )}
                </>
              )}
              <EarlierTexts note={note} />
            </Stack>
          ))}
        </Stack>
      )}
      <NoteEditor label="Add a note" initial="" submitLabel="Add note" onSave={onAdd} />
    </Stack>
  );
}
