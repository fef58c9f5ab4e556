/**
 * The product editor page: owns the draft, the create call, leaving safely and what happens after.
 */
import '@mantine/notifications/styles.css';
import { Alert, Button, Group, Modal, Stack, Text, Title } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { pathTo } from '@/lib/paths';
import { useBlocker, useNavigate, usePathState } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import { wireProductSchema, type ErrorDetail, type WireProduct } from '@/contract/site-api';
import { createProduct } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { isOutcomeUnknown, writeMeaning } from '@/lib/api-error-class';
import { CreateFailure } from './create-outcome';
import { addCreated } from './created-products';
import { deleteDraft, listDrafts, newDraftId, saveDraft, type Draft } from './draft-storage';
import { DraftsPanel } from './drafts-panel';
import { EditImportedPage } from './import/edit-imported-page';
import { ProductEditor } from './editor/product-editor';
import type { FormProblem } from './model/codec';
import { decodeProduct, settingsForSite } from './model/codec';
import { mapServerDetails } from './model/error-paths';
import type { PriceDecimals } from './model/money';
import type { ProductForm } from './model/product-form';
import { newProductFor } from './model/site-fields';

const AUTOSAVE_DELAY_MS = 400;

function fromTemplate(template: WireProduct | undefined, decimals: PriceDecimals): ProductForm | null {
  if (!template) return null;
  // A new product from an existing one: same content, but the slug must be new.
  return { ...decodeProduct({ ...template, slug: undefined }, decimals), slug: '', slugEdited: false };
}

/** Saves the product being edited as draft `draftId.current`, debounced (see schedule). */
function useDraftAutosave(draftId: { readonly current: string }) {
  const pending = useRef<{ read: () => ProductForm; step: number } | null>(null);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  const [storageFailed, setStorageFailed] = useState(false);
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    if (!pending.current) return;
    const ok = saveDraft(draftId.current, pending.current.read(), pending.current.step);
    pending.current = null;
    setStorageFailed(!ok);
  }, [draftId]);
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

/** The editor: a new product, or (arrived from an import's "Open in editor") a product of the import. */
export function NewProductPage() {
  const fromImport = usePathState('newProduct')?.fromImport;
  return fromImport === undefined ? <CreateProductPage /> : <EditImportedPage key={fromImport} productKey={fromImport} />;
}

function CreateProductPage() {
  // The browser's language is the one the person types numbers and dates in; every step reads with it.
  const { site } = useSite();
  const [settings] = useState(() => settingsForSite(navigator.language, site));
  // History outlives the code that wrote it: a template is used only if the contract's schema accepts it.
  const templateState = usePathState('newProduct')?.template;
  const template = useMemo(() => {
    const parsed = wireProductSchema.safeParse(templateState);
    return parsed.success ? parsed.data : undefined;
  }, [templateState]);
  const navigate = useNavigate();
  const [drafts, setDrafts] = useState<Draft[]>(listDrafts);
  // The draft this editor saves to: a new one, or the one resumed.
  const draftId = useRef(newDraftId());
  // A product to start from (a template) opens the editor at once; drafts wait on the list.
  const [start, setStart] = useState<{ values: ProductForm; step: number } | null>(() =>
    template || drafts.length === 0 ? { values: fromTemplate(template, settings.decimals) ?? newProductFor(site), step: 0 } : null,
  );
  const [unmapped, setUnmapped] = useState<readonly ErrorDetail[]>([]);
  const dirty = useRef(false);
  const created = useRef(false);
  const autosave = useDraftAutosave(draftId);

  const mutation = useMutation({
    mutationFn: (body: WireProduct) => createProduct(body),
    onSuccess: (response, body) => {
      created.current = true;
      autosave.cancel();
      deleteDraft(draftId.current);
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
        // A refusal that names fields (400, 422) puts them on the fields; every other answer is the banner's.
        const meaning = writeMeaning(error);
        if (error instanceof ApiError && meaning.type === 'refused' && (meaning.status === 400 || meaning.status === 422)) {
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
    return (
      <DraftsPanel
        drafts={drafts}
        onResume={(draft) => {
          draftId.current = draft.id;
          setStart({ values: draft.values, step: draft.step });
        }}
        onDelete={(draft) => {
          deleteDraft(draft.id);
          const rest = listDrafts();
          setDrafts(rest);
          if (rest.length === 0) setStart({ values: newProductFor(site), step: 0 });
        }}
        onStartNew={() => setStart({ values: newProductFor(site), step: 0 })}
      />
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
        targetName={site.name}
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
