/**
 * The import page's state in React: an ImportSession (import-session.ts, where the import's logic lives)
 * shown through useSyncExternalStore, the watch that reads the import again while someone else runs it,
 * the dry run (use-dry-run.ts), and what the page does with a file before the session keeps it (reading
 * it in the worker, matching its columns).
 */
import { useCallback, useDeferredValue, useEffect, useMemo, useState, useSyncExternalStore } from 'react';
import { useQuery } from '@tanstack/react-query';
import type { SiteInfo } from '@/contract/site-info';
import { useSite } from '@/lib/site-context';
import { addCreated } from '../created-products';
import { settingsForSite } from '../model/codec';
import { suggestSlug } from '../model/slug';
import { productReadingOf } from '../product-api';
import { readCatalogue } from './catalogue';
import { checkProduct, readerOf } from './check';
import { matchColumns, mappingOf, normaliseLabel, type ColumnMatch } from './columns';
import { DEFAULT_CONCURRENCY } from './create-queue';
import type { TextEncodingName } from './encoding';
import { importStore } from './import-store';
import { ImportSession } from './import-session';
import { importServer, pageCallsFor } from './session-server';
import * as serverImport from './server-import';
import { rememberedStore } from './remembered-columns';
import { throttled } from './throttled';
import { useDryRun } from './use-dry-run';
import { importItems, useImportApproval } from './approval';
import { useApprovalNeed } from '../approval';
import type { RunPlan } from './import-session';

export type { Progress } from './import-session';

/** How often an open import is read again: often while someone else runs it, else now and then. */
const WATCH_RUNNING_MS = 1_500;
const WATCH_IDLE_MS = 10_000;

/** The slugs the file's products have (typed, or suggested from the name): the catalogue's products it may update. */
function slugsOfFile(
  rows: readonly (readonly string[])[],
  mapping: readonly (string | null)[],
  fixes: Readonly<Record<string, string>>,
): string[] {
  const cell = readerOf(rows, fixes);
  const slug = mapping.indexOf('slug');
  const name = mapping.indexOf('name');
  return rows.flatMap((_, row) => {
    const typed = slug >= 0 ? cell(row, slug).trim() : '';
    const named = name >= 0 ? cell(row, name) : '';
    return typed !== '' ? [typed] : named.trim() !== '' ? [suggestSlug(named)] : [];
  });
}

export function useImport(site: SiteInfo) {
  const settings = useMemo(() => settingsForSite(navigator.language, site), [site]);
  const { onNotSignedIn } = useSite();
  const [session] = useState(
    () =>
      new ImportSession({
        siteId: site.id,
        server: importServer(onNotSignedIn, pageCallsFor(productReadingOf(site))),
        store: importStore(),
        tokens: serverImport.runnerToken,
        onCreated: addCreated,
      }),
  );
  const [subscribe] = useState(() => throttled(session.subscribe));
  const state = useSyncExternalStore(subscribe, session.getState);
  // A file of 10,000 rows and its work are rendered in the background, a few milliseconds at a time, never in
  // one long task.
  const file = useDeferredValue(state.file);
  const work = useDeferredValue(state.work);
  // The site's products, read once a file is open, to tell the file's updates from its new products.
  const hasFile = state.file !== null;
  const reading = useMemo(() => productReadingOf(site), [site]);
  const catalogue = useQuery({
    queryKey: ['import-catalogue', site.id, reading],
    queryFn: ({ signal }) =>
      readCatalogue(
        reading,
        () => {
          const { file: current, work: currentWork } = session.getState();
          return new Set(current && currentWork ? slugsOfFile(current.rows, currentWork.mapping, currentWork.fixes) : []);
        },
        signal,
      ),
    enabled: hasFile,
    staleTime: Infinity,
    retry: false,
    refetchOnWindowFocus: false,
  });
  const catalogueProducts = catalogue.isFetching ? undefined : catalogue.error ? null : catalogue.data?.products;
  const dryRun = useDryRun(file, work, site, settings, catalogueProducts);
  const { check } = dryRun;
  useEffect(() => {
    if (check) session.counted(check.result.products.length);
  }, [session, check]);

  useEffect(() => {
    void session.find();
    return () => session.dispose();
  }, [session]);

  // While open and not run from here, the import is read again: a colleague's progress shows as it happens.
  const serverId = state.work?.serverId;
  const watched = useQuery({
    queryKey: ['import', serverId],
    queryFn: ({ signal }) => serverImport.readImport(serverId ?? '', signal),
    enabled: serverId !== undefined && !state.holding,
    refetchInterval: (query) => (query.state.data?.runner || state.offline ? WATCH_RUNNING_MS : WATCH_IDLE_MS),
    refetchIntervalInBackground: false,
    retry: false,
    gcTime: 0,
  });
  useEffect(() => {
    if (watched.data) void session.received(watched.data);
  }, [session, watched.data]);
  // A read that failed: the server is away (this browser's copy is shown), or said why (discarded, say).
  const watchedOffline = watched.error !== null && serverImport.unreachable(watched.error);
  const watchedNotice = watched.error !== null && !watchedOffline ? serverImport.saidOf(watched.error) : null;

  // A page that goes away lets its run go at once (a reload takes it back by its token anyway).
  useEffect(() => {
    if (!state.holding) return;
    const leave = () => session.leave(serverImport.releaseOnLeave);
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, [session, state.holding]);

  // The file as chosen, kept in memory (never stored) so it can be read again in another encoding or sheet.
  const [blob, setBlob] = useState<Blob | null>(null);
  const [parsed, setParsed] = useState<{ errors: { line: number; message: string }[]; ms: number | null }>({ errors: [], ms: null });

  const load = async (source: Blob | string, fileName: string, choice?: { encoding?: TextEncodingName; sheet?: number }) => {
    const read = await dryRun.parse(source, settings.locale, choice);
    const next = { fileName, source: read.source, delimiter: read.delimiter, headers: read.headers, rows: read.rows };
    dryRun.holds(next);
    const mapping = mappingOf(matchColumns(read.headers, settings.fields, rememberedStore.read())) as (string | null)[];
    await session.load(
      next,
      { mapping, fixes: {}, statuses: {}, started: false, concurrency: DEFAULT_CONCURRENCY },
      { rereading: choice !== undefined },
    );
    setBlob(typeof source === 'string' ? null : source);
    setParsed({ errors: read.errors, ms: read.ms });
  };

  // From the mapping alone, so that statuses changing while sending leave the (memoised) columns panel be.
  const mapping = work?.mapping;
  const matches: ColumnMatch[] = useMemo(() => {
    if (!file || !mapping) return [];
    const auto = matchColumns(file.headers, settings.fields, rememberedStore.read());
    return file.headers.map((header, i) => ({
      header,
      column: mapping[i] ?? null,
      how: auto[i]?.column === (mapping[i] ?? null) ? (auto[i]?.how ?? 'none') : 'remembered',
    }));
  }, [file, mapping, settings.fields]);

  // One function for the page's life, so that the memoised columns panel is not rendered for nothing.
  const mapColumn = useCallback(
    (index: number, column: string | null) => {
      const { file: current, work: currentWork } = session.getState();
      const header = current?.headers[index];
      if (header === undefined || !currentWork) return;
      rememberedStore.write({ ...rememberedStore.read(), [normaliseLabel(header)]: column });
      // One field per column: a field chosen here leaves the column that had it.
      session.map(currentWork.mapping.map((id, i) => (i === index ? column : id === column ? null : id)));
    },
    [session],
  );

  /** What a run would send now: the dry run's products without problems and not answered yet, each one's body. */
  const planOf = useCallback((): Omit<RunPlan, 'approvedChange'> | null => {
    const { file: current, work: currentWork } = session.getState();
    if (!check || !current || !currentWork) return null;
    const statuses = currentWork.statuses;
    const rowsOf = new Map(check.result.products.map((p) => [p.key, p.rows]));
    const cell = readerOf(current.rows, currentWork.fixes);
    const updates = new Map(
      check.result.products.flatMap((p) =>
        p.action.kind === 'update' ? [[p.key, { id: p.action.id, fingerprint: p.action.fingerprint, body: p.action.body }] as const] : [],
      ),
    );
    return {
      keys: check.result.products
        .filter((p) => p.problems.length === 0 && p.action.kind !== 'unchanged' && !statuses[String(p.key)])
        .map((p) => p.key),
      products: check.result.products.length,
      body: (key: number) => checkProduct(rowsOf.get(key) ?? [], currentWork.mapping, cell, { settings, site }).body,
      update: (key: number) => updates.get(key) ?? null,
    };
  }, [session, check, settings, site]);

  // Where the site's rule covers imports: the set a run would send, asked for and approved as one change.
  const need = useApprovalNeed(site.id, 'import');
  const covered = need.state === 'on';
  const items = useMemo(() => {
    if (!covered || !check || !work) return null;
    const plan = planOf();
    return plan ? importItems(plan, reading.shape) : null;
    // The set changes with the dry run and with what was answered (the statuses); `work` holds both.
  }, [covered, check, work, planOf, reading.shape]);
  const approval = useImportApproval({
    siteId: site.id,
    importId: state.work?.serverId,
    items,
    started: work?.started ?? false,
    enabled: covered,
  });

  return {
    ...state,
    settings,
    /** The site's products as the dry run read them: reading, read (how many), or why they could not be. */
    catalogue: {
      reading: catalogue.isFetching,
      count: catalogue.data?.products.length ?? null,
      error: catalogue.error ? (serverImport.saidOf(catalogue.error) ?? catalogue.error.message) : null,
      /** Reads the site's products again, and checks the file against them anew. */
      again: () => void catalogue.refetch(),
    },
    file,
    work,
    check,
    parseErrors: parsed.errors,
    parseMs: parsed.ms,
    matches,
    offline: state.offline || watchedOffline,
    notice: state.notice ?? watchedNotice,
    heldBy: state.holding ? null : state.heldBy,
    load,
    /** Reads the same file again in another encoding or from another sheet; nothing was sent from it yet. */
    reread: (choice: { encoding?: TextEncodingName; sheet?: number }) =>
      blob && state.file && !state.work?.started ? load(blob, state.file.fileName, choice) : Promise.resolve(),
    /** Whether the file can be read again in another encoding or sheet (it is in memory, nothing sent). */
    canReread: blob !== null && !work?.started,
    mapColumn,
    fixCell: (row: number, column: number, text: string, productKey: number) => session.fix(row, column, text, productKey),
    decide: session.decide.bind(session),
    /** Whether the site's rule holds imports back until approved, and where this import's approval stands. */
    need,
    approval,
    start: (concurrency: number) => {
      const plan = planOf();
      if (!plan) return Promise.resolve();
      if (covered) {
        // Never sent without an approval of exactly these rows (the server refuses them anyway).
        const { approval: now } = approval;
        if (now.state !== 'approved' || !now.holds) return Promise.resolve();
        return session.run({ ...plan, approvedChange: now.change.id }, concurrency);
      }
      if (need.state !== 'off') return Promise.resolve();
      return session.run(plan, concurrency);
    },
    choose: session.choose.bind(session),
    pause: session.pause.bind(session),
    resume: session.resume.bind(session),
    cancel: session.cancel.bind(session),
    startOver: async () => {
      await session.startOver();
      setBlob(null);
    },
  };
}
