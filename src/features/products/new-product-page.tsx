/**
 * The product editor page: owns the draft, the create call, leaving safely and what happens after.
 */
import '@mantine/notifications/styles.css';
import { Alert, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatDate } from '@/lib/format-date';
import { pathTo } from '@/lib/paths';
import { useBlocker, useNavigate, usePathState } from '@/lib/router';
import type { ErrorDetail, WireProduct } from '@/contract/site-api';
import { ApiError, createProduct } from '@/lib/api-client';
import { classifyApiError, isOutcomeUnknown } from '@/lib/api-error-class';
import { CreateFailure } from './create-outcome';
import { addCreated } from './created-products';
import { clearDraft, loadDraft, saveDraft, type Draft } from './draft-storage';
import { ProductEditor } from './editor/product-editor';
import type { FormProblem } from './model/codec';
import { decodeProduct, settingsForLocale } from './model/codec';
import { mapServerDetails } from './model/error-paths';
import { emptyProduct, type ProductForm } from './model/product-form';

const AUTOSAVE_DELAY_MS = 400;

function fromTemplate(template: WireProduct | undefined): ProductForm | null {
  if (!template) return null;
  // A new product from an existing one: same content, but the slug must be new.
  return { ...decodeProduct({ ...template, slug: undefined }), slug: '', slugEdited: false };
}

function useDraftAutosave() {
  const pending = useRef<{ read: () => ProductForm; step: number } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [storageFailed, setStorageFailed] = useState(false);
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    if (!pending.current) return;
    const ok = saveDraft(pending.current.read(), pending.current.step);
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

export function NewProductPage() {
  // The browser's language is the one the person types numbers and dates in; every step reads with it.
  const [settings] = useState(() => settingsForLocale(navigator.language));
  // Validated against the contract by the paths table: history outlives the code that wrote it.
  const template = usePathState('newProduct')?.template;
  const navigate = useNavigate();
  const [draft, setDraft] = useState<Draft | null>(() => loadDraft());
  const [start, setStart] = useState<{ values: ProductForm; step: number } | null>(() =>
    draft ? null : { values: fromTemplate(template) ?? emptyProduct(), step: 0 },
  );
  const [unmapped, setUnmapped] = useState<readonly ErrorDetail[]>([]);
  const dirty = useRef(false);
  const created = useRef(false);
  const autosave = useDraftAutosave();

  const mutation = useMutation({
    mutationFn: (body: WireProduct) => createProduct(body),
    onSuccess: (response, body) => {
      created.current = true;
      autosave.cancel();
      clearDraft();
      const entry = addCreated(body, response);
      navigate(pathTo('createdProduct', { id: entry.localId }), { state: { justCreated: true } });
    },
  });

  const { mutateAsync } = mutation;
  const submit = useCallback(
    async (body: WireProduct): Promise<FormProblem[]> => {
      try {
        await mutateAsync(body);
        return [];
      } catch (error) {
        const failure = classifyApiError(error);
        if (error instanceof ApiError && failure.type === 'answered' && (failure.status === 400 || failure.status === 422)) {
          const mapped = mapServerDetails(settings.fields, error.details);
          setUnmapped(mapped.unmapped);
          return mapped.fieldErrors;
        }
        setUnmapped([]);
        return [];
      }
    },
    [mutateAsync, settings.fields],
  );

  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => dirty.current && !created.current && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      if (dirty.current && !created.current) event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, []);

  const onDirtyChange = useCallback((value: boolean) => {
    dirty.current = value;
  }, []);

  if (!start) {
    const when = draft ? formatDate(new Date(draft.savedAt)) : '';
    return (
      <Stack maw={640}>
        <Title order={1}>New product</Title>
        <Alert color="blue" title="You have an unfinished product" role="alert">
          <Stack gap="sm">
            <Text size="sm">
              A draft{draft?.values.name ? ` of “${draft.values.name}”` : ''} was saved in this browser on {when}. Restore it to carry on
              where you left off, or discard it to start afresh.
            </Text>
            <Group>
              <Button
                onClick={() => {
                  if (draft) setStart({ values: draft.values, step: draft.step });
                  setDraft(null);
                }}
              >
                Restore draft
              </Button>
              <Button
                variant="default"
                onClick={() => {
                  clearDraft();
                  setDraft(null);
                  setStart({ values: fromTemplate(template) ?? emptyProduct(), step: 0 });
                }}
              >
                Discard draft
              </Button>
            </Group>
          </Stack>
        </Alert>
      </Stack>
    );
  }

  const banner = mutation.isError ? (
    <CreateFailure
      error={mutation.error}
      unmapped={unmapped}
      // Confirmed not created: Create comes back, and sends the product as it is now (with any edits
      // made since), checked again like any create.
      onRetry={() => mutation.reset()}
    />
  ) : autosave.storageFailed ? (
    <Alert color="yellow" title="Drafts cannot be saved in this browser">
      The browser refused to store the draft (storage full or disabled). Export the product as JSON to keep a copy.
    </Alert>
  ) : null;

  return (
    <Stack gap="md">
      {/* Only the editor notifies (imports, undo), so the notifications code loads with it. */}
      <Notifications position="top-right" />
      <Title order={1}>New product</Title>
      <ProductEditor
        defaultValues={start.values}
        settings={settings}
        initialStep={start.step}
        submitting={mutation.isPending}
        onSubmit={submit}
        onValuesChange={autosave.schedule}
        onDirtyChange={onDirtyChange}
        banner={banner}
        createDisabled={mutation.isError && isOutcomeUnknown(mutation.error)}
      />
      <Modal opened={blocker.state === 'blocked'} onClose={() => blocker.reset?.()} title="Leave the editor?" centered>
        <Stack>
          <Text size="sm">
            The product has not been created yet. Your changes stay in this browser as a draft, and you can restore
            them when you come back.
          </Text>
          <Group justify="flex-end">
            <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
              Stay
            </Button>
            <Button
              color="red"
              onClick={() => blocker.proceed?.()}
            >
              Leave
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
