/**
 * The import page's state and side effects: the file and the work on it (kept on the server, shared with
 * every browser and colleague, and copied to this browser's IndexedDB for when the server cannot be
 * reached), the dry run (in the worker, again after every change), the create queue, and the run's lease
 * (one page at a time sends; see docs/import.md).
 */
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SiteInfo } from '@/contract/site-info';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { IMPORT_PRODUCT_HEADER, IMPORT_RENEW_MS, IMPORT_RUNNER_HEADER, type ImportRecord } from '@/contract/imports';
import { createProduct } from '@/lib/api-client';
import { storedValue } from '@/lib/storage';
import { addCreated, listCreated } from '../created-products';
import { slugsOnly, useTeamSlugs } from '../team-slugs';
import { settingsForSite } from '../model/codec';
import { checkProduct, readerOf, type CheckResult } from './check';
import { matchColumns, mappingOf, normaliseLabel, type ColumnMatch, type RememberedMapping } from './columns';
import { createQueue, DEFAULT_CONCURRENCY, type CreateQueue, type Outcome, type QueueSnapshot } from './create-queue';
import { importStore, type ImportFile, type ImportWork, type ProductStatus, type SavedImport } from './import-store';
import type { TextEncodingName } from './encoding';
import {
  claimRun,
  createImport,
  decideProduct,
  discardImport,
  fromRecord,
  listImports,
  readImport,
  releaseOnLeave,
  releaseRun,
  runnerToken,
  saidOf,
  saveWork,
  sharedWork,
  unreachable,
  type ImportRunner,
  type ImportSummary,
} from './server-import';
import { createCheckClient, type CheckClient } from './worker-client';

/** Columns mapped by hand, per site, by header: remembered for the next file with the same headers. */
const rememberedStore = storedValue<RememberedMapping>({
  key: 'site-admin:import:columns:v1',
  parse: (json) => (json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as RememberedMapping) : undefined),
  fallback: {},
  isEmpty: (value) => Object.keys(value).length === 0,
});

export interface Progress {
  snapshot: QueueSnapshot<number>;
  /** Products this run set out to send. */
  total: number;
}

/** Waits between re-checks while a person types fixes. */
const RECHECK_DELAY_MS = 120;
/** Waits after the last change of the mapping or a fix before saving it to the server. */
const SAVE_DELAY_MS = 400;
/** How often an open import is read again: often while someone else runs it, else now and then. */
const WATCH_RUNNING_MS = 1_500;
const WATCH_IDLE_MS = 10_000;

export function useImport(site: SiteInfo) {
  const settings = useMemo(() => settingsForSite(navigator.language, site), [site]);
  const store = useMemo(() => importStore(), []);
  const client = useRef<CheckClient | null>(null);
  const [file, setFile] = useState<ImportFile | null>(null);
  const [work, setWork] = useState<ImportWork | null>(null);
  const [restoring, setRestoring] = useState(true);
  const [check, setCheck] = useState<{ result: CheckResult; ms: number } | null>(null);
  const [parseErrors, setParseErrors] = useState<{ line: number; message: string }[]>([]);
  const [parseMs, setParseMs] = useState<number | null>(null);
  const [progress, setProgress] = useState<Progress | null>(null);
  const [storageFailed, setStorageFailed] = useState(false);
  /** The server could not be reached: the page shows this browser's copy (as of `syncedAt`), and sending waits. */
  const [offline, setOffline] = useState(false);
  /** The site's open imports, when there are several and none is open yet. */
  const [choices, setChoices] = useState<ImportSummary[] | null>(null);
  /** What the server said to something this page asked (a run someone else holds, a save made stale). */
  const [notice, setNotice] = useState<string | null>(null);
  const queryClient = useQueryClient();
  /** Whether this page holds the run; who does, when someone else does. */
  const [holding, setHolding] = useState(false);
  const [heldBy, setHeldBy] = useState<ImportRunner | null>(null);
  const queue = useRef<CreateQueue<number> | null>(null);
  const workRef = useRef<ImportWork | null>(null);
  const fileRef = useRef<ImportFile | null>(null);
  const workerHasRows = useRef(false);
  const runner = useRef<string | null>(null);
  const renewTimer = useRef<ReturnType<typeof setInterval> | null>(null);
  const saveTimer = useRef<ReturnType<typeof setTimeout> | null>(null);
  const unsaved = useRef(false);
  const productCount = useRef<number | undefined>(undefined);
  const lastSignature = useRef('');

  const getClient = () => (client.current ??= createCheckClient());
  useEffect(() => () => client.current?.dispose(), []);

  /** This browser's copy, written on every change (failures said, not fatal). */
  const cache = useCallback(
    (next: ImportWork) =>
      store.saveWork(next).then(
        () => setStorageFailed(false),
        () => setStorageFailed(true),
      ),
    [store],
  );

  /** Shows `next` and keeps it in this browser. */
  const show = useCallback(
    (next: ImportWork) => {
      workRef.current = next;
      setWork(next);
      return cache(next);
    },
    [cache],
  );

  /**
   * Takes the server's import: its file and work when the server's are newer than this page's, and its
   * statuses. A read older than what this page saved since (a poll that crossed a save) changes nothing.
   */
  const apply = useCallback(
    (record: ImportRecord, options: { file?: boolean } = {}) => {
      const local = workRef.current;
      const same = local?.serverId === record.id;
      if (same && local.version !== undefined && record.version < local.version) return Promise.resolve();
      const newer = !same || local.version !== record.version;
      // A poll that finds nothing new changes nothing (no render, no write to this browser's copy).
      const signature = Object.entries(record.products)
        .map(([key, p]) => `${key}:${p.status}:${p.at}`)
        .join(',');
      if (!newer && fileRef.current !== null && signature === lastSignature.current) return Promise.resolve();
      lastSignature.current = signature;
      const next = fromRecord(record, same ? local.statuses : {});
      const nextWork: ImportWork =
        newer || !local ? { ...next.work, syncedAt: Date.now() } : { ...local, statuses: next.work.statuses, syncedAt: Date.now() };
      if (options.file !== false && (fileRef.current === null || newer)) {
        fileRef.current = next.file;
        workerHasRows.current = false;
        setFile(next.file);
        void store.saveFile(next.file).catch(() => setStorageFailed(true));
      }
      setOffline(false);
      setChoices(null);
      return show(nextWork);
    },
    [show, store],
  );

  /** Opens the server's import `id`; a run this tab left (a reload) is let go first. */
  const open = useCallback(
    async (id: string) => {
      const left = runnerToken.read(id);
      if (left && runner.current === null) {
        runnerToken.write(id, null);
        await releaseRun(id, left, false).catch(() => undefined);
      }
      const record = await readImport(id);
      setHeldBy(record.runner);
      await apply(record);
    },
    [apply],
  );

  /**
   * Finds the import to show: this browser's, if the server still has it; the site's one open import; or
   * the list to choose from. Without the server: this browser's copy, said so.
   */
  const restore = useCallback(
    async (after: 'start' | 'discard', saved: SavedImport | null) => {
      let open_: ImportSummary[];
      try {
        open_ = await listImports(site.id);
      } catch (error) {
        if (saved && unreachable(error)) {
          fileRef.current = saved.file;
          workRef.current = saved.work;
          workerHasRows.current = false;
          setFile(saved.file);
          setWork(saved.work);
          setOffline(true);
          return;
        }
        if (unreachable(error)) setOffline(true);
        else setNotice(saidOf(error));
        return;
      }
      setOffline(false);
      const mine = saved?.work.serverId;
      if (saved && mine && open_.some((one) => one.id === mine)) return open(mine);
      if (saved && !mine) {
        // Kept only in this browser (an earlier version, or loaded while the server was away): the server keeps
        // it now, with what this browser knows was answered, so nothing created is ever sent again.
        const record = await createImport(site.id, saved.file, sharedWork(saved.work), saved.work.statuses);
        return apply(record);
      }
      // This browser's copy of an import someone discarded is forgotten.
      if (saved) await store.clear().catch(() => undefined);
      if (after === 'start' && open_.length === 1 && open_[0]) return open(open_[0].id);
      setChoices(open_.length > 0 ? open_ : null);
    },
    [store, site.id, open, apply],
  );

  // The site's import, from the server: a reload, another browser or a colleague opens the same one, paused,
  // showing what was answered.
  useEffect(() => {
    let live = true;
    store
      .load()
      .catch(() => null)
      .then((saved) => restore('start', saved))
      .catch((error: unknown) => live && (unreachable(error) ? setOffline(true) : setNotice(saidOf(error))))
      .finally(() => live && setRestoring(false));
    return () => {
      live = false;
    };
  }, [store, restore]);

  // While open and not run from here, the import is read again: a colleague's progress shows as it happens.
  const serverId = work?.serverId;
  const watched = useQuery({
    queryKey: ['import', serverId],
    queryFn: ({ signal }) => readImport(serverId ?? '', signal),
    enabled: serverId !== undefined && !holding,
    refetchInterval: (query) => (query.state.data?.runner || offline ? WATCH_RUNNING_MS : WATCH_IDLE_MS),
    refetchIntervalInBackground: false,
    retry: false,
    gcTime: 0,
  });
  useEffect(() => {
    const record = watched.data;
    if (!record || holding || record.id !== workRef.current?.serverId) return;
    setHeldBy(record.runner);
    // Changes of this page not saved yet are not overwritten; the save that follows meets the new version.
    if (unsaved.current) return;
    void apply(record);
  }, [watched.data, holding, apply]);
  // A read that failed: the server is away (this browser's copy is shown), or said why (discarded, say).
  const watchedOffline = watched.error !== null && unreachable(watched.error);
  const watchedNotice = watched.error !== null && !watchedOffline ? saidOf(watched.error) : null;

  /** Saves the mapping, fixes and settings to the server; a stale version loads the fresh import instead. */
  const saveToServer = useCallback(async () => {
    const current = workRef.current;
    if (!current?.serverId || current.version === undefined) return;
    unsaved.current = false;
    try {
      const version = await saveWork(current.serverId, current.version, sharedWork(current, productCount.current));
      const latest = workRef.current;
      if (latest?.serverId === current.serverId) await show({ ...latest, version, syncedAt: Date.now() });
      setOffline(false);
      // A read of the import that came while this save was pending was set aside (it would have overwritten
      // the change): read it again now, so what the server learnt meanwhile (a create whose answer this page
      // lost, known created there) shows at once rather than at the next poll. While this page runs the
      // import, its query is off and is not read.
      void queryClient.invalidateQueries({ queryKey: ['import', current.serverId] });
    } catch (error) {
      if (unreachable(error)) {
        // Kept in this browser; saved with the next change, or when the server answers again.
        unsaved.current = true;
        setOffline(true);
        return;
      }
      setNotice(saidOf(error));
      await open(current.serverId).catch(() => undefined);
    }
  }, [show, open, queryClient]);

  // Back online with changes not saved: they are saved now.
  useEffect(() => {
    if (!offline && unsaved.current) void saveToServer();
  }, [offline, saveToServer]);

  const persist = useCallback(
    (next: ImportWork) => {
      unsaved.current = true;
      if (saveTimer.current) clearTimeout(saveTimer.current);
      saveTimer.current = setTimeout(() => void saveToServer(), SAVE_DELAY_MS);
      return show(next);
    },
    [show, saveToServer],
  );
  useEffect(
    () => () => {
      if (saveTimer.current && unsaved.current) void saveToServer();
    },
    [saveToServer],
  );

  // Slugs created from this browser, read once (parsing the created list on every answer would cost more
  // than the answer); those this import created itself are its own products, not duplicates.
  const [localSlugs] = useState(() => listCreated().flatMap((c) => (c.body.slug ? [c.body.slug] : [])));
  // And the slugs the whole team created on this site, from the activity record (a failure to read them
  // leaves this browser's own list).
  const teamSlugs = useTeamSlugs(site, slugsOnly);
  const listedSlugs = useMemo(() => [...new Set([...localSlugs, ...(teamSlugs.data ?? [])])], [localSlugs, teamSlugs.data]);
  const oursKey = useMemo(
    () =>
      Object.values(work?.statuses ?? {})
        .flatMap((s) => (s.status === 'created' && s.body.slug ? [s.body.slug] : []))
        .join('\n'),
    [work?.statuses],
  );
  const createdSlugs = useMemo(() => {
    const ours = new Set(oursKey.split('\n'));
    return listedSlugs.filter((slug) => !ours.has(slug));
  }, [listedSlugs, oursKey]);
  // The dry run, again after every change of the file, the mapping, a fix or those slugs.
  useEffect(() => {
    if (!file || !work) return;
    let live = true;
    const timer = setTimeout(() => {
      const rows = workerHasRows.current ? undefined : file.rows;
      workerHasRows.current = true;
      void getClient()
        .check({ rows, mapping: work.mapping, fixes: work.fixes, site, locale: settings.locale, createdSlugs })
        .then((answer) => {
          if (!live) return;
          productCount.current = answer.result.products.length;
          setCheck(answer);
        });
    }, RECHECK_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [file, work?.mapping, work?.fixes, createdSlugs, site, settings.locale]); // eslint-disable-line react-hooks/exhaustive-deps -- `work` itself changes with every answer; the dry run reads only these parts of it

  // The file as chosen, kept in memory (never stored) so it can be read again in another encoding or sheet.
  const blobRef = useRef<Blob | null>(null);
  const [hasBlob, setHasBlob] = useState(false);

  const load = useCallback(
    async (source: Blob | string, fileName: string, choice?: { encoding?: TextEncodingName; sheet?: number }) => {
      const parsed = await getClient().parse(source, settings.locale, choice);
      blobRef.current = typeof source === 'string' ? null : source;
      setHasBlob(blobRef.current !== null);
      workerHasRows.current = true;
      const matches = matchColumns(parsed.headers, settings.fields, rememberedStore.read());
      const nextFile: ImportFile = {
        fileName,
        source: parsed.source,
        delimiter: parsed.delimiter,
        headers: parsed.headers,
        rows: parsed.rows,
      };
      let nextWork: ImportWork = {
        mapping: mappingOf(matches) as (string | null)[],
        fixes: {},
        statuses: {},
        started: false,
        concurrency: DEFAULT_CONCURRENCY,
      };
      // The same file read again (another encoding or sheet) stays the same import on the server.
      const previous = workRef.current;
      const reading = choice !== undefined && previous?.serverId !== undefined && !previous.started;
      if (reading && previous.serverId) await discardImport(previous.serverId).catch(() => undefined);
      // Kept by the server first, so a colleague sees it; without the server, in this browser only (sent later).
      try {
        const record = await createImport(site.id, nextFile, sharedWork(nextWork));
        nextWork = { ...nextWork, serverId: record.id, version: record.version, syncedAt: Date.now() };
        setOffline(false);
      } catch (error) {
        if (!unreachable(error)) throw new Error(saidOf(error) ?? 'The server refused to keep this import.');
        setOffline(true);
      }
      fileRef.current = nextFile;
      workRef.current = nextWork;
      // Rendered in the background, the file and its work together: the page for a file is built a few
      // milliseconds at a time (a transition), never in one long task; `work` set on its own, outside the
      // transition, made React build it all at once (80–110 ms at 10,000 rows).
      startTransition(() => {
        setParseErrors(parsed.errors);
        setParseMs(parsed.ms);
        setCheck(null);
        setProgress(null);
        setChoices(null);
        setNotice(null);
        setHeldBy(null);
        setFile(nextFile);
        setWork(nextWork);
      });
      await store.saveFile(nextFile).catch(() => setStorageFailed(true));
      await cache(nextWork);
    },
    [settings.fields, settings.locale, store, site.id, cache],
  );

  /** Reads the same file again in another encoding or from another sheet; nothing was sent from it yet. */
  const reread = useCallback(
    (choice: { encoding?: TextEncodingName; sheet?: number }) => {
      const blob = blobRef.current;
      const current = fileRef.current;
      if (!blob || !current || workRef.current?.started) return Promise.resolve();
      return load(blob, current.fileName, choice);
    },
    [load],
  );

  const matches: ColumnMatch[] = useMemo(() => {
    if (!file || !work) return [];
    const auto = matchColumns(file.headers, settings.fields, rememberedStore.read());
    const mapping = work.mapping;
    return file.headers.map((header, i) => ({
      header,
      column: mapping[i] ?? null,
      how: auto[i]?.column === (mapping[i] ?? null) ? (auto[i]?.how ?? 'none') : 'remembered',
    }));
  }, [file, work?.mapping, settings.fields]); // eslint-disable-line react-hooks/exhaustive-deps -- only the mapping of `work` is read

  const mapColumn = useCallback(
    (index: number, column: string | null) => {
      const current = workRef.current;
      const header = fileRef.current?.headers[index];
      if (!current || header === undefined) return;
      rememberedStore.write({ ...rememberedStore.read(), [normaliseLabel(header)]: column });
      // One field per column: a field chosen here leaves the column that had it.
      const mapping = current.mapping.map((id, i) => (i === index ? column : id === column ? null : id));
      void persist({ ...current, mapping });
    },
    [persist],
  );

  const fixCell = useCallback(
    (row: number, column: number, text: string, productKey: number) => {
      const current = workRef.current;
      if (!current) return;
      const statuses = { ...current.statuses };
      // A rejected product was not created: fixed, it can be sent again.
      if (statuses[String(productKey)]?.status === 'rejected') {
        delete statuses[String(productKey)];
        if (current.serverId) void decideProduct(current.serverId, String(productKey), 'pending').catch(() => undefined);
      }
      void persist({ ...current, fixes: { ...current.fixes, [`${row}:${column}`]: text }, statuses });
    },
    [persist],
  );

  /** A product's status in this page (and this browser's copy); the server keeps its own from the answers. */
  const setStatus = useCallback(
    (key: number, status: ProductStatus | null) => {
      const current = workRef.current;
      if (!current) return Promise.resolve();
      const statuses = { ...current.statuses };
      if (status) statuses[String(key)] = status;
      else delete statuses[String(key)];
      return show({ ...current, statuses });
    },
    [show],
  );

  /** A person's decision on an unknown outcome: skip it, or send it again; the server keeps it for everyone. */
  const decide = useCallback(
    async (key: number, decision: 'skip' | 'send-again') => {
      const id = workRef.current?.serverId;
      if (id) {
        try {
          await decideProduct(id, String(key), decision === 'skip' ? 'skipped' : 'pending');
        } catch (error) {
          setNotice(
            unreachable(error) ? 'The server cannot be reached: the decision was not kept. Try again once it is back.' : saidOf(error),
          );
          return;
        }
      }
      await setStatus(key, decision === 'skip' ? { status: 'skipped', message: 'Skipped by hand after an unknown outcome' } : null);
    },
    [setStatus],
  );

  const bodyOf = useCallback(
    (rows: readonly number[]) => {
      const current = workRef.current;
      const currentFile = fileRef.current;
      if (!current || !currentFile) throw new Error('No import');
      return checkProduct(rows, current.mapping, readerOf(currentFile.rows, current.fixes), { settings, site });
    },
    [settings, site],
  );

  const stopRenewing = () => {
    if (renewTimer.current) clearInterval(renewTimer.current);
    renewTimer.current = null;
  };

  /** Lets the run go (once nothing is on its way): a pause, a stop, or every product sent. */
  const release = useCallback(
    async (finished: boolean) => {
      const id = workRef.current?.serverId;
      const token = runner.current;
      stopRenewing();
      runner.current = null;
      setHolding(false);
      if (!id || !token) return;
      runnerToken.write(id, null);
      await releaseRun(id, token, finished).catch(() => undefined);
      // What the server learnt during the run shows now (a create whose answer this page lost, known created
      // there), not at the next poll: the watch's last read is still fresh to the query client when it is turned
      // back on, so it is not read again by itself.
      await readImport(id).then(
        // Changes of this page not saved yet are not overwritten; the save that follows reads it again.
        (record) => (unsaved.current ? undefined : apply(record, { file: false })),
        () => undefined,
      );
    },
    [apply],
  );

  /**
   * Takes the import's run on the server (or is told who holds it), and keeps it while sending. Resolves
   * to whether this page holds it.
   */
  const takeRun = useCallback(async (): Promise<boolean> => {
    const id = workRef.current?.serverId;
    if (!id) return false;
    try {
      const claimed = await claimRun(id, runner.current ?? runnerToken.read(id));
      runner.current = claimed.runner;
      runnerToken.write(id, claimed.runner);
    } catch (error) {
      if (unreachable(error)) {
        setOffline(true);
        setNotice('The server cannot be reached, so nothing is sent: sending waits until it is back.');
      } else {
        setNotice(saidOf(error));
        void readImport(id).then(
          (record) => setHeldBy(record.runner),
          () => undefined,
        );
      }
      return false;
    }
    setHolding(true);
    setHeldBy(null);
    setNotice(null);
    stopRenewing();
    renewTimer.current = setInterval(() => {
      const token = runner.current;
      if (!token) return;
      claimRun(id, token).then(
        () => setOffline(false),
        (error: unknown) => {
          if (unreachable(error)) {
            // The lease may lapse meanwhile; the server then refuses this page's creates, so nothing is sent twice.
            setOffline(true);
            return;
          }
          setNotice(saidOf(error));
          queue.current?.pause();
        },
      );
    }, IMPORT_RENEW_MS);
    return true;
  }, []);

  // A page that goes away lets its run go at once (a reload takes it back by its token anyway).
  useEffect(() => {
    if (!holding) return;
    const leave = () => {
      const id = workRef.current?.serverId;
      if (id && runner.current) releaseOnLeave(id, runner.current);
    };
    window.addEventListener('pagehide', leave);
    return () => window.removeEventListener('pagehide', leave);
  }, [holding]);

  /** The server refused a create (409): already answered, or the run was lost. Stop, and show the server's truth. */
  const refusedByServer = useCallback(
    (message: string) => {
      setNotice(message);
      queue.current?.pause();
      const id = workRef.current?.serverId;
      if (id)
        void readImport(id).then(
          (record) => apply(record, { file: false }),
          () => undefined,
        );
    },
    [apply],
  );

  const start = useCallback(
    async (concurrency: number) => {
      const current = workRef.current;
      if (!check || !current) return;
      const rowsOf = new Map(check.result.products.map((p) => [p.key, p.rows]));
      const keys = check.result.products.filter((p) => p.problems.length === 0 && !current.statuses[String(p.key)]).map((p) => p.key);
      if (keys.length === 0) return;
      let id = current.serverId;
      if (!id) {
        // Loaded while the server was away: it keeps the import first; nothing is sent without it.
        try {
          const record = await createImport(site.id, fileRef.current as ImportFile, sharedWork(current, check.result.products.length));
          id = record.id;
          await show({ ...current, serverId: id, version: record.version, syncedAt: Date.now() });
          setOffline(false);
        } catch (error) {
          if (unreachable(error)) setOffline(true);
          setNotice(
            unreachable(error) ? 'The server cannot be reached, so nothing is sent: sending waits until it is back.' : saidOf(error),
          );
          return;
        }
      }
      // Saved before the run is taken (its event counts the products) and before the first send, so a reload
      // or a colleague finds it started, as it was started.
      productCount.current = check.result.products.length;
      unsaved.current = true;
      if (saveTimer.current) clearTimeout(saveTimer.current);
      await show({ ...(workRef.current ?? current), started: true, concurrency });
      await saveToServer();
      if (!(await takeRun())) return;
      // One queue at a time: an earlier one (paused) must never send the same products as this one.
      queue.current?.cancel();
      const importId = id;
      const bodies = new Map<number, ReturnType<typeof bodyOf>['body']>();
      let released = false;
      const q = createQueue<number>({
        keys,
        concurrency,
        beforeSend: async (key) => {
          const built = bodyOf(rowsOf.get(key) ?? []);
          bodies.set(key, built.body);
          await setStatus(key, { status: 'sending', since: Date.now() });
        },
        // Held back by a back-off or a pause after its "sending" was written: it was not sent.
        onHeld: (key) => setStatus(key, null),
        send: (key) =>
          createProduct(bodies.get(key) ?? { name: '', enabled: 'true' }, undefined, {
            [IMPORT_PRODUCT_HEADER]: `${importId}/${key}`,
            [IMPORT_RUNNER_HEADER]: runner.current ?? '',
          }),
        onOutcome: async (key, outcome: Outcome) => {
          const body = bodies.get(key) ?? { name: '', enabled: 'true' };
          if (outcome.status === 'created') {
            await setStatus(key, { status: 'created', at: Date.now(), answer: outcome.answer, body });
            addCreated(body, outcome.answer);
          } else if (outcome.status === 'rejected' && outcome.httpStatus === 409) {
            // Our server's refusal, never the platform's (it does not answer 409): nothing was sent.
            await setStatus(key, null);
            refusedByServer(outcome.message);
          } else if (outcome.status === 'rejected') {
            await setStatus(key, {
              status: 'rejected',
              httpStatus: outcome.httpStatus,
              message: outcome.message,
              details: [...outcome.details],
            });
          } else await setStatus(key, { status: 'unknown', message: outcome.message });
        },
        onChange: (snapshot) => {
          setProgress({ snapshot, total: keys.length });
          const stopped = snapshot.state === 'paused' || snapshot.state === 'cancelled' || snapshot.state === 'done';
          if (stopped && snapshot.inFlight.length === 0 && !released && queue.current === q) {
            released = true;
            void release(snapshot.state === 'done');
          }
        },
      });
      queue.current = q;
      q.start();
    },
    [check, show, saveToServer, bodyOf, setStatus, site.id, takeRun, release, refusedByServer],
  );

  /** Sends again what is left, once the run is taken back. */
  const resume = useCallback(async () => {
    const q = queue.current;
    if (!q) return;
    if (!runner.current && !(await takeRun())) return;
    q.resume();
  }, [takeRun]);

  const startOver = useCallback(async () => {
    const id = workRef.current?.serverId;
    if (id) {
      try {
        await discardImport(id);
      } catch (error) {
        if (!unreachable(error)) {
          setNotice(saidOf(error));
          return;
        }
        // Without the server, only this browser forgets it; the server's stays for whoever opens it.
      }
    }
    queue.current?.cancel();
    queue.current = null;
    fileRef.current = null;
    workRef.current = null;
    setFile(null);
    setWork(null);
    setCheck(null);
    setProgress(null);
    setNotice(null);
    setHeldBy(null);
    blobRef.current = null;
    setHasBlob(false);
    await store.clear().catch(() => setStorageFailed(true));
    await restore('discard', null).catch(() => undefined);
  }, [store, restore]);

  /** Opens one of the site's open imports. */
  const choose = useCallback(
    (id: string) => {
      setNotice(null);
      return open(id).catch((error: unknown) => setNotice(unreachable(error) ? 'The server cannot be reached.' : saidOf(error)));
    },
    [open],
  );

  useEffect(
    () => () => {
      queue.current?.pause();
      stopRenewing();
    },
    [],
  );

  return {
    settings,
    restoring,
    file,
    work,
    check,
    parseErrors,
    parseMs,
    matches,
    progress,
    storageFailed,
    offline: offline || watchedOffline,
    choices,
    notice: notice ?? watchedNotice,
    /** Who runs this import elsewhere (a live lease), while this page does not. */
    heldBy: holding ? null : heldBy,
    load,
    reread,
    /** Whether the file can be read again in another encoding or sheet (it is in memory, nothing sent). */
    canReread: hasBlob && !work?.started,
    mapColumn,
    fixCell,
    setStatus,
    decide,
    start,
    choose,
    pause: () => queue.current?.pause(),
    resume,
    cancel: () => queue.current?.cancel(),
    startOver,
    bodyOf,
  };
}
