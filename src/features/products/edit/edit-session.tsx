/**
 * The work on one product of the catalogue once it is read: the editor filled with it, its draft, Review's
 * diff, Save (an update carrying If-Match with the fingerprint of the product as read), the conflict view
 * when it changed on the platform since (412: nothing was sent), retiring and bringing back.
 *
 * The session's `base` is the product as the editor last read it (or as a colleague left it, once the
 * person chose field by field): every diff is taken from it and every update carries its fingerprint.
 */
import '@mantine/notifications/styles.css';
import { Alert, Badge, Button, Group, List, Stack, Text, Title } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ProductRecord, WireProductUpdate } from '@/contract/products';
import type { ErrorDetail } from '@/contract/site-api';
import { ApiError } from '@/lib/api-error';
import { explainWriteFailure, writeMeaning } from '@/lib/write-meaning';
import { pathTo } from '@/lib/paths';
import { Link, useNavigate } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import type { Change } from '@/contract/approvals';
import { askForApproval, changeQuery, editChange } from '@/features/approvals/approvals-api';
import { useQueryClient } from '@tanstack/react-query';
import { ApprovalRuleFailed, AskFailed, AskedForApproval, approvalButton, useApprovalNeed, useRuleRefusal } from '../approval';
import { DraftRefusedAlert, LeaveDialog, useEditorWork } from '../editor-work';
import { CreatingNotice } from '../editor/creating-notice';
import { ProductEditor } from '../editor/product-editor';
import { updateBodyText } from '../model/body-text';
import type { FormProblem, ProductSettings } from '../model/codec';
import { applyChoices, mergeConflict, type ConflictChoice, type ProductConflict } from '../model/merge-conflict';
import { openForEdit, type ReadOnlyReason } from '../model/open-for-edit';
import { diffProduct } from '../model/product-diff';
import type { ProductForm } from '../model/product-form';
import { STEPS } from '../model/registry';
import { getProduct, updateProduct, type ProductRead, type ProductReading } from '../product-api';
import { ConflictView } from './conflict-view';
import { deleteEditDraft, findEditDraft, saveEditDraft } from './edit-drafts';
import { EditReview } from './edit-review';
import { RetireDialog } from './retire-dialog';
import { mapUpdateDetails } from './update-errors';
import { UpdateFailure } from './update-failure';

type Read = Extract<ProductRead, { kind: 'read' }>;

const REVIEW = STEPS.length - 1;

/** What the page says above the editor about how it was opened. */
type Notice = 'restored' | 'saved' | 'rebased' | 'retired' | 'brought-back' | 'changed-meanwhile' | null;

interface Session {
  base: ProductRecord;
  fingerprint: string;
  /** The platform's own text of the product as read (what asking for approval stores as `before`). */
  text: string;
  readOnly: ReadOnlyReason[];
  start: { values: ProductForm; step: number };
  /** A new editor for each new base (a save, a choice after a conflict, a reload). */
  version: number;
  notice: Notice;
  /** The form starts with changes of the person's (a restored draft, choices after a conflict). */
  startsChanged: boolean;
}

interface Conflict {
  conflict: ProductConflict;
  theirs: Read;
  cause: 'save' | 'draft' | 'change';
}

interface Failure {
  error: unknown;
  /** The values that were being saved (for the conflict view, should the product turn out changed). */
  values?: ProductForm;
  fieldErrors: FormProblem[];
  unmapped: readonly ErrorDetail[];
}

/** The editor opened on a product as read, timed from the answer to the first paint after it (`product-edit:open`). */
function opened(read: Read, settings: ProductSettings) {
  const start = performance.now();
  const result = openForEdit(read.record, read.unknown, settings);
  performance.measure('product-edit:open-for-edit', { start, end: performance.now() });
  return result;
}

function freshSession(read: Read, settings: ProductSettings, version: number, notice: Notice): Session {
  const { form, readOnly } = opened(read, settings);
  return {
    base: read.record,
    fingerprint: read.fingerprint,
    text: read.text,
    readOnly,
    // Saved: Review says there is nothing more to send, which is the proof the platform has it all.
    start: { values: form, step: notice === 'saved' && readOnly.length === 0 ? REVIEW : 0 },
    version,
    notice,
    startsChanged: false,
  };
}

/**
 * A pending change of this product that its author edits (from the change's page): `read` is the product
 * as it was read when the change was asked for, `values` the stored body applied to it.
 */
export interface PendingUpdate {
  change: Change;
  /** The version the change's page showed: the new version is made from it. */
  version: number;
  values: ProductForm;
  /** The product as read now, where it changed on the platform since the change was asked for (else null). */
  now: Read | null;
}

/** How the editor opens: the product, the draft kept of it, or the conflict view when it changed since the draft. */
function initial(
  id: string,
  read: Read,
  settings: ProductSettings,
  pending?: PendingUpdate,
): { session: Session; conflict: Conflict | null } {
  const session = freshSession(read, settings, 0, null);
  if (session.readOnly.length > 0) return { session, conflict: null };
  if (pending) {
    const start = { ...session, start: { values: pending.values, step: REVIEW }, startsChanged: true };
    // Changed on the platform since it was asked for: what changed there beside the change's edits, to choose.
    if (!pending.now) return { session: start, conflict: null };
    return {
      session: start,
      conflict: {
        conflict: mergeConflict(read.record, pending.now.record, pending.values, settings),
        theirs: pending.now,
        cause: 'change',
      },
    };
  }
  const draft = findEditDraft(id);
  if (!draft) return { session, conflict: null };
  if (draft.fingerprint === read.fingerprint) {
    return {
      session: { ...session, start: { values: draft.values, step: draft.step }, notice: 'restored', startsChanged: true },
      conflict: null,
    };
  }
  return { session, conflict: { conflict: mergeConflict(draft.base, read.record, draft.values, settings), theirs: read, cause: 'draft' } };
}

export function EditSession({
  id,
  read,
  settings,
  reading,
  siteName,
  pending,
}: {
  id: string;
  read: Read;
  settings: ProductSettings;
  reading: ProductReading;
  siteName: string;
  pending?: PendingUpdate;
}) {
  const { site } = useSite();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  // Whether Save sends or asks for approval: read beside the editor, never holding it up.
  const need = useApprovalNeed(site.id, 'update');
  const [asked, setAsked] = useState<Change | null>(null);
  const [askFailure, setAskFailure] = useState<unknown>(null);
  const ruleRefusal = useRuleRefusal();
  const [first] = useState(() => initial(id, read, settings, pending));
  const [session, setSession] = useState<Session>(first.session);
  const [conflict, setConflict] = useState<Conflict | null>(first.conflict);
  const [sending, setSending] = useState(false);
  const [failure, setFailure] = useState<Failure | null>(null);
  const [checking, setChecking] = useState(false);
  const [hasChanges, setHasChanges] = useState(false);
  const [retire, setRetire] = useState<{ open: boolean; sending: boolean; failure: { title: string; message: string } | null }>({
    open: false,
    sending: false,
    failure: null,
  });
  const [dirty, setDirty] = useState(false);

  // The first paint of the editor with this product, from the answer (marked by the page's read).
  useEffect(() => {
    const frame = requestAnimationFrame(() => {
      if (performance.getEntriesByName('product-edit:read', 'mark').length > 0) {
        performance.measure('product-edit:open', 'product-edit:read');
        performance.clearMarks('product-edit:read');
      }
    });
    return () => cancelAnimationFrame(frame);
  }, []);

  const sessionRef = useRef(session);
  useEffect(() => {
    sessionRef.current = session;
  }, [session]);

  const work = useEditorWork(
    useCallback(
      (values: ProductForm, step: number) => {
        const current = sessionRef.current;
        // A pending change is its own saved work: no draft of the product is kept beside it.
        if (current.readOnly.length > 0 || pending) return true;
        // Back to the product as read: nothing to keep.
        if (diffProduct(current.base, values, settings).body === null) {
          deleteEditDraft(id);
          return true;
        }
        return saveEditDraft({ productId: id, fingerprint: current.fingerprint, base: current.base, step, values });
      },
      [id, settings, pending],
    ),
  );
  const { onDirtyChange: workDirty, discardPending } = work;
  const startsChanged = session.startsChanged;
  const onDirtyChange = useCallback(
    (value: boolean) => {
      // A form that opens with the person's changes has something to lose before its first keystroke.
      workDirty(value || startsChanged);
      setDirty(value || startsChanged);
    },
    [workDirty, startsChanged],
  );

  /** Opens the product as read now, in a new editor; the draft goes. */
  const reopen = useCallback(
    (now: Read, notice: Notice) => {
      discardPending();
      deleteEditDraft(id);
      setConflict(null);
      setFailure(null);
      setSession((s) => freshSession(now, settings, s.version + 1, notice));
    },
    [discardPending, id, settings],
  );

  /** Reads the product again; a failure is shown as the save's. */
  const readAgain = async (): Promise<Read | null> => {
    try {
      const now = await getProduct(id, reading);
      if (now.kind === 'read') return now;
      setFailure({
        error: new Error(`The product as read again is not one site-admin can read: ${now.problem}.`),
        fieldErrors: [],
        unmapped: [],
      });
    } catch (error) {
      setFailure({ error, fieldErrors: [], unmapped: [] });
    }
    return null;
  };

  /** It changed on the platform: what they changed beside mine, to choose. */
  const showConflict = async (values: ProductForm) => {
    const theirs = await readAgain();
    if (!theirs) return;
    discardPending();
    saveEditDraft({ productId: id, fingerprint: session.fingerprint, base: session.base, step: REVIEW, values });
    setConflict({ conflict: mergeConflict(session.base, theirs.record, values, settings), theirs, cause: 'save' });
  };

  /**
   * Where the site's rule covers updates (or the change being edited): the exact text Review shows is
   * stored as a pending change, with the fingerprint the update would carry in If-Match and the product as
   * read; nothing is sent to the platform.
   */
  const ask = async (text: string) => {
    setSending(true);
    setAskFailure(null);
    try {
      // Edited on the product as it is now (after choosing field by field): the new version carries it as its
      // `before` and its fingerprint as `base`, so that sending it is checked against that product.
      const moved = pending && session.fingerprint !== pending.change.base ? { base: session.fingerprint, before: session.text } : {};
      const change = pending
        ? await editChange(pending.change.id, { version: pending.version, body: text, ...moved })
        : await askForApproval({ site: site.id, kind: 'update', product: id, base: session.fingerprint, before: session.text, body: text });
      work.finish();
      discardPending();
      if (pending) {
        queryClient.setQueryData(changeQuery(change.id).queryKey, change);
        navigate(pathTo('approval', { id: change.id }));
        return;
      }
      deleteEditDraft(id);
      setAsked(change);
    } catch (error) {
      setAskFailure(error);
    } finally {
      setSending(false);
    }
  };

  const submit = async (values: ProductForm) => {
    const { body } = diffProduct(session.base, values, settings);
    if (body === null) return;
    if (pending || need.state === 'on') return ask(updateBodyText(body, reading.shape));
    setSending(true);
    setFailure(null);
    try {
      await updateProduct(id, body, session.fingerprint, reading);
    } catch (error) {
      setSending(false);
      if (error instanceof ApiError && error.status === 412) return showConflict(values);
      ruleRefusal(error);
      return setFailure({ ...refusal(error, body, values, settings), values });
    }
    // Saved: the product as the platform has it now is the new base.
    discardPending();
    deleteEditDraft(id);
    const now = await readAgain();
    setSending(false);
    if (now) reopen(now, 'saved');
    else setSession((s) => ({ ...s, notice: 'saved' }));
  };

  /** After an answer that leaves the outcome unknown: the product as it is now says whether it arrived. */
  const check = async () => {
    setChecking(true);
    const now = await readAgain();
    setChecking(false);
    if (!now) return;
    if (now.fingerprint === session.fingerprint) return setFailure(null);
    const values = failure?.values ?? findEditDraft(id)?.values;
    if (values) setConflict({ conflict: mergeConflict(session.base, now.record, values, settings), theirs: now, cause: 'save' });
    else reopen(now, 'changed-meanwhile');
  };

  const choose = (choices: Record<string, ConflictChoice>) => {
    if (!conflict) return;
    const { base, form } = applyChoices(conflict.conflict, choices, settings);
    const theirs = conflict.theirs;
    // A pending change is its own saved work: no draft of the product is kept beside it.
    if (!pending) saveEditDraft({ productId: id, fingerprint: theirs.fingerprint, base, step: REVIEW, values: form });
    setConflict(null);
    setFailure(null);
    const readOnly = opened(theirs, settings).readOnly;
    setSession((s) => ({
      base,
      fingerprint: theirs.fingerprint,
      text: theirs.text,
      readOnly,
      start: { values: form, step: REVIEW },
      version: s.version + 1,
      notice: 'rebased',
      startsChanged: true,
    }));
  };

  const enabled = session.base.enabled !== 'false';
  const toggleEnabled = async () => {
    setRetire((r) => ({ ...r, sending: true, failure: null }));
    const body: WireProductUpdate = { name: session.base.name, enabled: enabled ? 'false' : 'true' };
    try {
      await updateProduct(id, body, session.fingerprint, reading);
    } catch (error) {
      if (error instanceof ApiError && error.status === 412) {
        setRetire({ open: false, sending: false, failure: null });
        const now = await readAgain();
        if (now) reopen(now, 'changed-meanwhile');
        return;
      }
      const text = explainWriteFailure(error, 'update');
      return setRetire({ open: true, sending: false, failure: { title: text.title, message: text.message } });
    }
    setRetire({ open: false, sending: false, failure: null });
    const now = await readAgain();
    if (now) reopen(now, enabled ? 'retired' : 'brought-back');
  };

  const onHasChanges = useCallback((has: boolean) => setHasChanges(has), []);
  const readOnly = session.readOnly.length > 0;
  const editing = useMemo(() => ({ existing: true, readOnly }), [readOnly]);
  const name = session.base.name || `Product ${id}`;
  const outcomeUnknown = failure !== null && failure.error instanceof ApiError && writeMeaning(failure.error).type === 'unknown';

  const banner = failure ? (
    failure.error instanceof ApiError ? (
      <UpdateFailure
        error={failure.error}
        unmapped={failure.unmapped}
        onRetry={() => setFailure(null)}
        onCheck={() => void check()}
        checking={checking}
      />
    ) : (
      <Alert color="red" title="The product could not be read again" role="alert">
        {failure.error instanceof Error ? failure.error.message : String(failure.error)}
      </Alert>
    )
  ) : askFailure !== null ? (
    <AskFailed error={askFailure} />
  ) : need.state === 'failed' && !pending ? (
    <ApprovalRuleFailed need={need} siteName={siteName} />
  ) : work.storageFailed ? (
    <DraftRefusedAlert />
  ) : null;
  const button = pending ? { label: 'Ask again (new version)', ready: true } : approvalButton(need, 'Save changes');
  // Retiring sends an update of its own: where updates need approval, it goes through the editor (Enabled) instead.
  const retireHeld = need.state !== 'off' || pending !== undefined;

  return (
    <Stack gap="md">
      <Notifications position="top-right" />
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} style={{ minWidth: 0, flex: '1 1 20rem' }}>
          <Title order={1} style={{ overflowWrap: 'anywhere' }}>
            Edit product: {name}
          </Title>
          <Group gap="xs">
            <Text size="sm" c="dimmed">
              Product {id} on {siteName}
            </Text>
            <Badge variant="light" color={enabled ? 'teal' : 'gray'}>
              {enabled ? 'Enabled' : 'Retired'}
            </Badge>
          </Group>
        </Stack>
        <Group gap="xs">
          {!readOnly && !conflict && (
            <Button
              variant="default"
              color={enabled ? 'red' : 'teal'}
              onClick={() => setRetire({ open: true, sending: false, failure: null })}
              disabled={dirty || sending || retireHeld}
              title={
                retireHeld
                  ? 'Corrections on this site need approval: switch Enabled in the editor and ask for approval'
                  : dirty
                    ? 'Save or discard your changes first: this sends only the switch'
                    : undefined
              }
            >
              {enabled ? 'Retire…' : 'Bring back…'}
            </Button>
          )}
          <Button component={Link} to={pathTo('catalogue')} variant="subtle">
            Catalogue
          </Button>
        </Group>
      </Group>
      <NoticeAlert notice={session.notice} siteName={siteName} onDiscard={() => void readAgain().then((now) => now && reopen(now, null))} />
      {readOnly && <ReadOnlyNotice reasons={session.readOnly} />}
      {pending && (
        <Text size="sm" c="dimmed">
          Editing version {pending.version} of a change waiting for approval. Asking again makes a new version: approvals given to this one
          no longer count.
        </Text>
      )}
      {asked ? (
        <Stack gap="sm" align="flex-start">
          <AskedForApproval change={asked} siteName={siteName} />
          <Button
            variant="default"
            onClick={() =>
              void readAgain().then((now) => {
                if (!now) return;
                setAsked(null);
                reopen(now, null);
              })
            }
          >
            Open the product as it is on the platform
          </Button>
        </Stack>
      ) : conflict ? (
        <ConflictView conflict={conflict.conflict} cause={conflict.cause} onApply={choose} onReload={() => reopen(conflict.theirs, null)} />
      ) : (
        <ProductEditor
          key={session.version}
          defaultValues={session.start.values}
          settings={settings}
          initialStep={session.start.step}
          submitting={sending}
          onSubmit={submit}
          errors={failure?.fieldErrors}
          disabled={!hasChanges || outcomeUnknown || !button.ready}
          onValuesChange={work.onValuesChange}
          onDirtyChange={onDirtyChange}
          banner={banner}
          targetName={siteName}
          submitLabel={button.label}
          formLabel="Edit product"
          editing={editing}
          sendingNotice={<CreatingNotice target={siteName} doing="Saving the changes" />}
          review={(props) => (
            <EditReview {...props} base={session.base} shape={reading.shape} readOnly={readOnly} onHasChanges={onHasChanges} />
          )}
        />
      )}
      <RetireDialog
        opened={retire.open}
        retire={enabled}
        name={name}
        siteName={siteName}
        sending={retire.sending}
        failure={retire.failure}
        onConfirm={() => void toggleEnabled()}
        onClose={() => setRetire({ open: false, sending: false, failure: null })}
      />
      <LeaveDialog
        blocker={work.blocker}
        unsaved={pending ? 'The change has not been asked for again yet.' : 'Your changes have not been saved to the platform yet.'}
        draftKept={!pending}
      />
    </Stack>
  );
}

/** A failed save's problems on the fields (a refusal that names them), and the rest for the banner. */
function refusal(error: unknown, body: WireProductUpdate, values: ProductForm, settings: ProductSettings): Failure {
  const meaning = writeMeaning(error);
  if (error instanceof ApiError && meaning.type === 'refused' && (meaning.status === 400 || meaning.status === 422)) {
    return { error, ...mapUpdateDetails(settings.fields, body, values, error.details) };
  }
  return { error, fieldErrors: [], unmapped: [] };
}

function NoticeAlert({ notice, siteName, onDiscard }: { notice: Notice; siteName: string; onDiscard: () => void }) {
  switch (notice) {
    case null:
      return null;
    case 'saved':
      return (
        <Alert color="teal" title="Saved" role="status">
          {siteName} has your changes. The editor now shows the product as the platform has it.
        </Alert>
      );
    case 'retired':
      return (
        <Alert color="teal" title="Retired" role="status">
          The product is switched off on {siteName}: customers no longer see it. Bring it back at any time.
        </Alert>
      );
    case 'brought-back':
      return (
        <Alert color="teal" title="Brought back" role="status">
          The product is switched on again on {siteName}.
        </Alert>
      );
    case 'rebased':
      return (
        <Alert color="blue" title="Your choices are in the editor" role="status">
          It now holds the product as it is on the platform, with the fields you chose to keep yours. Review shows what a save changes;
          nothing has been sent yet.
        </Alert>
      );
    case 'changed-meanwhile':
      return (
        <Alert color="orange" title="The product changed on the platform" role="status">
          Nothing was sent. The editor now shows the product as it is on the platform.
        </Alert>
      );
    case 'restored':
      return (
        <Alert color="blue" title="Your earlier changes to this product are restored">
          <Group justify="space-between">
            <Text size="sm">They were kept in this browser as a draft; the platform does not have them yet.</Text>
            <Button variant="default" size="xs" onClick={onDiscard}>
              Discard them and reload the product
            </Button>
          </Group>
        </Alert>
      );
  }
}

function ReadOnlyNotice({ reasons }: { reasons: readonly ReadOnlyReason[] }) {
  return (
    <Alert color="yellow" title="This product opens read-only" role="alert">
      <Stack gap={4}>
        <Text size="sm">
          The editor cannot represent {reasons.length === 1 ? 'one of its fields' : `${reasons.length} of its fields`} faithfully, so saving
          from here could drop or change what the platform has. Correct it in the platform’s own admin, or ask whoever runs this server to
          teach site-admin the field. Every value can still be looked at.
        </Text>
        <List size="sm">
          {reasons.slice(0, 50).map((reason, i) => (
            <List.Item key={i}>
              <b>{reason.field}</b>: {reason.why}
            </List.Item>
          ))}
        </List>
        {reasons.length > 50 && <Text size="sm">…and {reasons.length - 50} more.</Text>}
      </Stack>
    </Alert>
  );
}
