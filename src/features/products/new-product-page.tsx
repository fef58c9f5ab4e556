/**
 * The new-product page: owns the work around the form (product-editor.tsx): where the values come from (a
 * draft, a template, the site's defaults), the draft kept as the person types, sending (the one place the
 * values are encoded for the wire), what the platform answered, leaving safely and what happens after.
 */
import '@mantine/notifications/styles.css';
import { Alert, Stack, Text, Title } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
import { pathTo } from '@/lib/paths';
import { useNavigate, usePathState } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import type { Change } from '@/contract/approvals';
import { wireProductSchema, type ErrorDetail, type WireProduct } from '@/contract/site-api';
import { askForApproval, changeQuery, editChange } from '@/features/approvals/approvals-api';
import { ownApiFailureText } from '@/lib/own-api-failure';
import {
  ApprovalRuleFailed,
  AskFailed,
  AskedForApproval,
  ReadingChange,
  approvalButton,
  useApprovalNeed,
  useRuleRefusal,
} from './approval';
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
import { createBodyText } from './model/body-text';
import { decodeProduct, encodeProduct, settingsForSite, type FormProblem, type ProductSettings } from './model/codec';
import { mapServerDetails } from './model/error-paths';
import type { PriceDecimals } from './model/money';
import type { ProductForm } from './model/product-form';
import { STEPS, type SiteFields } from './model/registry';
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
  const pending = usePathState('newProduct')?.change;
  return pending ? <PendingCreate key={pending} id={pending} /> : <NewProduct />;
}

function NewProduct() {
  // The browser's language is the one the person types numbers and dates in; every step reads with it.
  const { site } = useSite();
  const [settings] = useState(() => settingsForSite(navigator.language, site));
  // Whether Create sends or asks for approval: read beside the editor, never holding it up.
  const need = useApprovalNeed(site.id, 'create');
  const button = approvalButton(need, 'Create product');
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
  const ruleRefusal = useRuleRefusal();

  const mutation = useMutation({
    mutationFn: (body: WireProduct) => createProduct(body),
    onError: ruleRefusal,
    onSuccess: (response, body) => {
      work.finish();
      deleteDraft(draftId.current);
      const entry = addCreated(body, response);
      navigate(pathTo('createdProduct', { id: entry.localId }), { state: { justCreated: true } });
    },
  });
  const { mutate } = mutation;
  // Where the site's rule covers creates: the exact text Review shows is stored as a pending change, and
  // nothing is sent to the platform; the draft is done with.
  const ask = useMutation({
    mutationFn: (body: string) => askForApproval({ site: site.id, kind: 'create', body }),
    onSuccess: () => {
      work.finish();
      deleteDraft(draftId.current);
    },
  });
  const asking = need.state === 'on';
  const { mutate: askFor } = ask;
  // The values the form checked, encoded for the wire once, here, right before the request.
  const submit = useCallback(
    (values: ProductForm) => {
      const body = encodeProduct(values, settings).body;
      if (asking) askFor(createBodyText(body));
      else mutate(body);
    },
    [mutate, askFor, asking, settings],
  );
  const refused = useMemo(() => refusedFields(mutation.error, settings.fields), [mutation.error, settings.fields]);

  if (ask.isSuccess) return <Asked change={ask.data} siteName={site.name} />;

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
  ) : ask.isError ? (
    <AskFailed error={ask.error} />
  ) : need.state === 'failed' ? (
    <ApprovalRuleFailed need={need} siteName={site.name} />
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
        submitting={mutation.isPending || ask.isPending}
        onSubmit={submit}
        errors={refused.fieldErrors}
        disabled={(mutation.isError && isOutcomeUnknown(mutation.error)) || !button.ready}
        onValuesChange={work.onValuesChange}
        onDirtyChange={work.onDirtyChange}
        banner={banner}
        targetName={site.name}
        createdSlugs={createdSlugs}
        submitLabel={button.label}
      />
      <LeaveDialog blocker={work.blocker} unsaved="The product has not been created yet." />
    </Stack>
  );
}

/** After asking: the product is not created; its change waits for approval. */
function Asked({ change, siteName, again = false }: { change: Change; siteName: string; again?: boolean }) {
  return (
    <Stack gap="md" maw={720}>
      <Title order={1}>New product</Title>
      <AskedForApproval change={change} siteName={siteName} again={again} />
    </Stack>
  );
}

const REVIEW = STEPS.length - 1;

/**
 * Its author edits a pending change of a new product (from the change's page): the editor opens the stored
 * body through the same codec as a draft, and its button asks again, making a new version (the approvals
 * given to the old one no longer count). No draft is kept: the change itself is the saved work.
 */
function PendingCreate({ id }: { id: string }) {
  const { site } = useSite();
  const [settings] = useState(() => settingsForSite(navigator.language, site));
  const version = usePathState('newProduct')?.version;
  const change = useQuery({ ...changeQuery(id), staleTime: Infinity, refetchOnWindowFocus: false });
  if (change.isPending) {
    return <ReadingChange />;
  }
  if (change.isError) {
    return (
      <Stack maw={720}>
        <Title order={1}>Edit the change</Title>
        <Alert color="red" title="The change could not be read" role="alert">
          {ownApiFailureText(change.error)}
        </Alert>
      </Stack>
    );
  }
  const opened = openChange(change.data, settings);
  if (!opened.ok) {
    return (
      <Stack maw={720}>
        <Title order={1}>Edit the change</Title>
        <Alert color="orange" title="This change cannot be edited here" role="alert">
          {opened.why}
        </Alert>
      </Stack>
    );
  }
  return <PendingCreateEditor change={change.data} version={version ?? change.data.version} values={opened.values} settings={settings} />;
}

/** A pending create's stored body as form values, or why it cannot be opened in the editor. */
function openChange(change: Change, settings: ProductSettings): { ok: true; values: ProductForm } | { ok: false; why: string } {
  if (change.kind !== 'create' || change.body === null) return { ok: false, why: 'It is not a new product.' };
  if (!change.mayEdit) return { ok: false, why: 'Only its author may edit it, while it is still open.' };
  let json: unknown;
  try {
    json = JSON.parse(change.body);
  } catch {
    return { ok: false, why: 'Its stored body is not JSON.' };
  }
  const parsed = wireProductSchema.safeParse(json);
  if (!parsed.success) return { ok: false, why: 'Its stored body is not a product the editor can read.' };
  return { ok: true, values: decodeProduct(parsed.data, settings.decimals) };
}

function PendingCreateEditor({
  change,
  version,
  values,
  settings,
}: {
  change: Change;
  version: number;
  values: ProductForm;
  settings: ProductSettings;
}) {
  const { site } = useSite();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const work = useEditorWork(useCallback(() => true, []));
  const edit = useMutation({
    mutationFn: (body: string) => editChange(change.id, { version, body }),
    onSuccess: (edited) => {
      work.finish();
      queryClient.setQueryData(changeQuery(edited.id).queryKey, edited);
      navigate(pathTo('approval', { id: edited.id }));
    },
  });
  const { mutate } = edit;
  const submit = useCallback((form: ProductForm) => mutate(createBodyText(encodeProduct(form, settings).body)), [mutate, settings]);
  return (
    <Stack gap="md">
      <Notifications position="top-right" />
      <Title order={1}>Edit the change: {change.title}</Title>
      <Text size="sm" c="dimmed">
        Version {version} of a new product waiting for approval on {site.name}. Asking again makes a new version: approvals given to this
        one no longer count.
      </Text>
      <ProductEditor
        defaultValues={values}
        settings={settings}
        initialStep={REVIEW}
        submitting={edit.isPending}
        onSubmit={submit}
        onValuesChange={work.onValuesChange}
        onDirtyChange={work.onDirtyChange}
        banner={edit.isError ? <AskFailed error={edit.error} title="The change could not be asked for again" /> : null}
        targetName={site.name}
        submitLabel="Ask again (new version)"
      />
      <LeaveDialog blocker={work.blocker} unsaved="The change has not been asked for again yet." draftKept={false} />
    </Stack>
  );
}
