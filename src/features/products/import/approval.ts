/**
 * An import where the site's rule covers imports: the dry run's set of writes is asked for as one change
 * (each write's exact body, keyed as the run keys it in `x-import-product`), and once approved the run
 * sends each row with the change in `x-approved-change`. A row whose body no longer matches the set that
 * was approved voids the approval: the page says so and offers to ask again (a new version). The server
 * refuses any row whose body's hash is not its item's, so this is what the page avoids offering, never
 * the guard.
 */
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { bodyHash, importSetHash, type Change, type ImportItem } from '@/contract/approvals';
import { updateBodyForShape, type ProductRecordShape } from '@/contract/products';
import { askForApproval, changeQuery, changesQuery, editChange } from '@/features/approvals/approvals-api';
import type { RunPlan } from './import-session';

/** How often a change waiting for approval is read again, to start the run once it is approved. */
const WATCH_PENDING_MS = 5_000;

/**
 * The writes a run of `plan` would send, in its order: a create's body as the create sends it, an update's
 * in the site's record shape with the product and the fingerprint its If-Match carries. The texts are
 * those of `createProduct` and `updateProduct` (JSON.stringify of the same values; held to them by a test).
 */
export function importItems(plan: Pick<RunPlan, 'keys' | 'body' | 'update'>, shape: ProductRecordShape): ImportItem[] {
  return plan.keys.map((key) => {
    const update = plan.update?.(key) ?? null;
    if (update) {
      return {
        key: String(key),
        method: 'PUT',
        product: update.id,
        base: update.fingerprint,
        body: JSON.stringify(updateBodyForShape(update.body, shape)),
      };
    }
    return { key: String(key), method: 'POST', body: JSON.stringify(plan.body(key)) };
  });
}

/**
 * Whether `items` are still what `change` holds: the same set (its hash), or, once rows were sent, each row
 * left to send as it was asked for (same key, method, product, base and body hash).
 */
export async function stillApproved(change: Change, items: readonly ImportItem[], started: boolean): Promise<boolean> {
  if ((await importSetHash(items)) === change.hash) return true;
  if (!started || !change.items) return false;
  const asked = new Map(change.items.map((item) => [item.key, item]));
  for (const item of items) {
    const was = asked.get(item.key);
    if (
      !was ||
      was.method !== item.method ||
      (was.product ?? null) !== (item.product ?? null) ||
      (was.base ?? null) !== (item.base ?? null)
    )
      return false;
    if ((await bodyHash(item.body)) !== was.hash) return false;
  }
  return true;
}

/** Where the import's approval stands, for its start button. */
export type ImportApproval =
  | { state: 'finding' }
  | { state: 'unreadable'; error: unknown }
  /** Not asked for yet (or the last was closed: withdrawn, expired, sent). */
  | { state: 'none' }
  /** `holds`: whether the rows to send are still those asked for; null while that is worked out. */
  | { state: 'pending' | 'rejected' | 'approved'; change: Change; holds: boolean | null };

/** The open change of import `importId`, if any: the site's open changes of kind import, read until one is this import's. */
async function findChange(read: ReturnType<typeof useQueryClient>, siteId: string, importId: string): Promise<Change | null> {
  const open = await read.fetchQuery({ ...changesQuery(siteId, 'open'), staleTime: 0 });
  for (const summary of open) {
    if (summary.kind !== 'import' || summary.site !== siteId) continue;
    const change = await read.fetchQuery({ ...changeQuery(summary.id), staleTime: 0 });
    if (change.importId === importId) return change;
  }
  return null;
}

export function useImportApproval({
  siteId,
  importId,
  items,
  started,
  enabled,
}: {
  siteId: string;
  importId: string | undefined;
  items: readonly ImportItem[] | null;
  started: boolean;
  enabled: boolean;
}) {
  const queryClient = useQueryClient();
  const key = ['import-change', siteId, importId] as const;
  // The query client reads the changes through their own queries; it is the page's one client, not an input.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  const found = useQuery({
    queryKey: key,
    queryFn: () => findChange(queryClient, siteId, importId ?? ''),
    enabled: enabled && importId !== undefined,
    refetchInterval: (query) => (query.state.data?.state === 'pending' ? WATCH_PENDING_MS : false),
    retry: false,
  });
  const change = found.data ?? null;
  // Whether the rows the run would send now are those approved: worked out (hashing) whenever either changes.
  const [holds, setHolds] = useState<{ change: Change; items: readonly ImportItem[]; holds: boolean } | null>(null);
  useEffect(() => {
    if (!change || !items) return;
    let live = true;
    void stillApproved(change, items, started).then((result) => live && setHolds({ change, items, holds: result }));
    return () => {
      live = false;
    };
  }, [change, items, started]);

  const [asking, setAsking] = useState<{ pending: boolean; error: unknown }>({ pending: false, error: null });
  const remember = (next: Change) => {
    queryClient.setQueryData(key, next);
    queryClient.setQueryData(changeQuery(next.id).queryKey, next);
  };
  /** Asks for approval of the set (or asks again: a new version of the change, its approvals void). */
  const ask = async () => {
    if (!items || items.length === 0 || importId === undefined) return;
    setAsking({ pending: true, error: null });
    try {
      remember(
        change && change.mayEdit
          ? await editChange(change.id, { version: change.version, items: [...items] })
          : await askForApproval({ site: siteId, kind: 'import', importId, items: [...items] }),
      );
      setAsking({ pending: false, error: null });
    } catch (error) {
      setAsking({ pending: false, error });
    }
  };

  let approval: ImportApproval;
  if (found.isPending) approval = { state: 'finding' };
  else if (found.isError) approval = { state: 'unreadable', error: found.error };
  else if (!change) approval = { state: 'none' };
  else {
    // Until the hashing of these very rows is done, the approval is not taken to hold.
    const now = holds !== null && holds.change === change && holds.items === items ? holds.holds : null;
    const state =
      change.state === 'approved' || change.state === 'sending' ? 'approved' : change.state === 'rejected' ? 'rejected' : 'pending';
    approval = { state, change, holds: now };
  }
  return { approval, ask, asking: asking.pending, askError: asking.error, again: () => void found.refetch() };
}
