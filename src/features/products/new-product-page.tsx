/**
 * The new-product page: owns the work around the form (product-editor.tsx): where the values come from (a
 * draft, a template, the site's defaults), the draft kept as the person types, sending (the one place the
 * values are encoded for the wire), what the platform answered, leaving safely and what happens after.
 */
import '@mantine/notifications/styles.css';
import { Stack, Title } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { useMutation } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { pathTo } from '@/lib/paths';
import { useNavigate, usePathState } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import { wireProductSchema, type ErrorDetail, type WireProduct } from '@/contract/site-api';
import { createProduct } from '@/lib/api-client';
import { ApiError } from '@/lib/api-error';
import { isOutcomeUnknown, writeMeaning } from '@/lib/write-meaning';
import { CreateFailure } from './create-outcome';
import { addCreated, listCreated } from './created-products';
import { deleteDraft, listDrafts, newDraftId, saveDraft, type Draft } from './draft-storage';
import { DraftsPanel } from './drafts-panel';
import { DraftRefusedAlert, LeaveDialog, useEditorWork } from './editor-work';
import type { CreatedSlug } from './editor/created-slugs';
import { ProductEditor } from './editor/product-editor';
import { decodeProduct, encodeProduct, settingsForSite, type FormProblem } from './model/codec';
import { mapServerDetails } from './model/error-paths';
import type { PriceDecimals } from './model/money';
import type { ProductForm } from './model/product-form';
import type { SiteFields } from './model/registry';
import { newProductFor } from './model/site-fields';
import { useTeamSlugs } from './team-slugs';

function fromTemplate(template: WireProduct | undefined, decimals: PriceDecimals): ProductForm | null {
  if (!template) return null;
  // A new product from an existing one: same content, but the slug must be new.
  return { ...decodeProduct({ ...template, slug: undefined }, decimals), slug: '', slugEdited: false };
}

const NOT_REFUSED: { fieldErrors: FormProblem[]; unmapped: readonly ErrorDetail[] } = { fieldErrors: [], unmapped: [] };

/** What a failed create named: its 400/422 details on form fields, and those no field holds. */
function refusedFields(error: unknown, fields: SiteFields) {
  // A refusal that names fields (400, 422) puts them on the fields; every other answer is the banner's.
  const meaning = writeMeaning(error);
  if (error instanceof ApiError && meaning.type === 'refused' && (meaning.status === 400 || meaning.status === 422)) {
    return mapServerDetails(fields, error.details);
  }
  return NOT_REFUSED;
}

export function NewProductPage() {
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
  // Slugs already created on the site, for the warning under the slug: the team's (the activity record),
  // and those created from this browser that the record does not list (a server that forgot nothing yet).
  const teamSlugs = useTeamSlugs(site);
  const createdSlugs = useMemo(() => {
    const known = new Map<string, CreatedSlug>();
    for (const mine of listCreated()) {
      if (mine.body.slug) known.set(mine.body.slug, { by: 'you, from this browser', at: mine.createdAt });
    }
    for (const theirs of teamSlugs.data ?? []) known.set(theirs.slug, { by: theirs.by, at: theirs.at });
    return known;
  }, [teamSlugs.data]);
  const work = useEditorWork(useCallback((values: ProductForm, step: number) => saveDraft(draftId.current, values, step), []));

  const mutation = useMutation({
    mutationFn: (body: WireProduct) => createProduct(body),
    onSuccess: (response, body) => {
      work.finish();
      deleteDraft(draftId.current);
      const entry = addCreated(body, response);
      navigate(pathTo('createdProduct', { id: entry.localId }), { state: { justCreated: true } });
    },
  });
  const { mutate } = mutation;
  // The values the form checked, encoded for the wire once, here, right before the request.
  const submit = useCallback((values: ProductForm) => mutate(encodeProduct(values, settings).body), [mutate, settings]);
  const refused = useMemo(() => refusedFields(mutation.error, settings.fields), [mutation.error, settings.fields]);

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
      unmapped={refused.unmapped}
      // Confirmed not created: Create comes back, and sends the product as it is now (with any edits
      // made since), checked again like any create.
      onRetry={() => mutation.reset()}
    />
  ) : work.storageFailed ? (
    <DraftRefusedAlert />
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
        errors={refused.fieldErrors}
        disabled={mutation.isError && isOutcomeUnknown(mutation.error)}
        onValuesChange={work.onValuesChange}
        onDirtyChange={work.onDirtyChange}
        banner={banner}
        targetName={site.name}
        createdSlugs={createdSlugs}
      />
      <LeaveDialog blocker={work.blocker} unsaved="The product has not been created yet." />
    </Stack>
  );
}
