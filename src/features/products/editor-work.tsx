/**
 * What every page that edits a product does around the form (product-editor.tsx): keeps a draft in this
 * browser as the person types, and asks before unsaved work is left by a link, Back or Forward, a reload
 * or a closed tab. The page says where its draft goes and when the work is done.
 */
import { Alert, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useBlocker, type Blocker } from '@/lib/router';
import type { ProductForm } from './model/product-form';

const AUTOSAVE_DELAY_MS = 400;

/** Stores the draft; false when the browser refused. */
export type SaveDraft = (values: ProductForm, step: number) => boolean;

/** Saves the product being edited through `save`, debounced (see schedule). */
function useDraftAutosave(save: SaveDraft) {
  const latestSave = useRef(save);
  useEffect(() => {
    latestSave.current = save;
  });
  const pending = useRef<{ read: () => ProductForm; step: number } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [storageFailed, setStorageFailed] = useState(false);
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    if (!pending.current) return;
    const ok = latestSave.current(pending.current.read(), pending.current.step);
    pending.current = null;
    setStorageFailed(!ok);
  }, []);
  const schedule = useCallback(
    (read: () => ProductForm, step: number) => {
      // Nothing read or copied per keystroke: the values are read once, when the draft is written.
      pending.current = { read, step };
      clearTimeout(timer.current);
      timer.current = setTimeout(flush, AUTOSAVE_DELAY_MS);
    },
    [flush],
  );
  const cancel = useCallback(() => {
    clearTimeout(timer.current);
    pending.current = null;
  }, []);
  useEffect(() => {
    // A closed tab or a reload within the debounce still saves.
    window.addEventListener('pagehide', flush);
    return () => {
      window.removeEventListener('pagehide', flush);
      flush();
    };
  }, [flush]);
  return { schedule, cancel, storageFailed };
}

/** The draft and the leave guard of an editing page; hand `onValuesChange` and `onDirtyChange` to the form. */
export function useEditorWork(save: SaveDraft) {
  const autosave = useDraftAutosave(save);
  const dirty = useRef(false);
  const finished = useRef(false);
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty.current && !finished.current && currentLocation.pathname !== nextLocation.pathname,
  );
  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (dirty.current && !finished.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);
  const onDirtyChange = useCallback((value: boolean) => {
    dirty.current = value;
  }, []);
  const { cancel } = autosave;
  /** The work is done (created, or brought back): nothing more is saved, and leaving asks nothing. */
  const finish = useCallback(() => {
    finished.current = true;
    cancel();
  }, [cancel]);
  return {
    onValuesChange: autosave.schedule,
    onDirtyChange,
    storageFailed: autosave.storageFailed,
    discardPending: cancel,
    finish,
    blocker,
  };
}

/**
 * "Leave the editor?", while a navigation is held; `unsaved` says what has not happened yet, and
 * `draftKept` whether the changes are kept as a draft (not while editing a pending change).
 */
export function LeaveDialog({ blocker, unsaved, draftKept = true }: { blocker: Blocker; unsaved: string; draftKept?: boolean }) {
  return (
    <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset()} title="Leave the editor?" centered>
      <Stack>
        <Text size="sm">
          {unsaved}{' '}
          {draftKept
            ? 'Your changes stay in this browser as a draft, and you can restore them when you come back.'
            : 'Your changes since opening it are lost.'}
        </Text>
        <Group justify="flex-end">
          <Button variant="default" onClick={() => blocker.reset()} data-autofocus>
            Stay
          </Button>
          <Button color="red" onClick={() => blocker.proceed()}>
            Leave
          </Button>
        </Group>
      </Stack>
    </Modal>
  );
}

export function DraftRefusedAlert() {
  return (
    <Alert color="yellow" title="Drafts cannot be saved in this browser">
      The browser refused to store the draft (storage full or disabled). Export the product as JSON to keep a copy.
    </Alert>
  );
}
