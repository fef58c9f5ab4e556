/**
 * The import page's state and side effects: the file and the work on it (kept in IndexedDB), the dry run
 * (in the worker, again after every change), and the create queue.
 */
import { startTransition, useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { SiteInfo } from '@/contract/site-info';
import { createProduct } from '@/lib/api-client';
import { storedValue } from '@/lib/storage';
import { addCreated, listCreated } from '../created-products';
import { slugsOnly, useTeamSlugs } from '../team-slugs';
import { settingsForSite } from '../model/codec';
import { checkProduct, readerOf, type CheckResult } from './check';
import { matchColumns, mappingOf, normaliseLabel, type ColumnMatch, type RememberedMapping } from './columns';
import { createQueue, DEFAULT_CONCURRENCY, type CreateQueue, type Outcome, type QueueSnapshot } from './create-queue';
import { importStore, type ImportFile, type ImportWork, type ProductStatus } from './import-store';
import type { TextEncodingName } from './encoding';
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
  const queue = useRef<CreateQueue<number> | null>(null);
  const workRef = useRef<ImportWork | null>(null);
  const fileRef = useRef<ImportFile | null>(null);
  const workerHasRows = useRef(false);

  const getClient = () => (client.current ??= createCheckClient());
  useEffect(() => () => client.current?.dispose(), []);

  const persist = useCallback(
    (next: ImportWork) => {
      workRef.current = next;
      setWork(next);
      return store.saveWork(next).then(
        () => setStorageFailed(false),
        () => setStorageFailed(true),
      );
    },
    [store],
  );

  // An import left in this browser resumes: paused, showing what was answered.
  useEffect(() => {
    let live = true;
    store
      .load()
      .then((saved) => {
        if (!live || !saved) return;
        fileRef.current = saved.file;
        workRef.current = saved.work;
        workerHasRows.current = false;
        setFile(saved.file);
        setWork(saved.work);
        // Products found "sending" are now "unknown": store that at once.
        void store.saveWork(saved.work);
      })
      .catch(() => setStorageFailed(true))
      .finally(() => live && setRestoring(false));
    return () => {
      live = false;
    };
  }, [store]);

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
        .then((answer) => live && setCheck(answer));
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
      const nextWork: ImportWork = {
        mapping: mappingOf(matches) as (string | null)[],
        fixes: {},
        statuses: {},
        started: false,
        concurrency: DEFAULT_CONCURRENCY,
      };
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
        setFile(nextFile);
        setWork(nextWork);
      });
      await store.saveFile(nextFile).catch(() => setStorageFailed(true));
      await store.saveWork(nextWork).then(
        () => setStorageFailed(false),
        () => setStorageFailed(true),
      );
    },
    [settings.fields, settings.locale, store],
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
      if (statuses[String(productKey)]?.status === 'rejected') delete statuses[String(productKey)];
      void persist({ ...current, fixes: { ...current.fixes, [`${row}:${column}`]: text }, statuses });
    },
    [persist],
  );

  const setStatus = useCallback(
    (key: number, status: ProductStatus | null) => {
      const current = workRef.current;
      if (!current) return Promise.resolve();
      const statuses = { ...current.statuses };
      if (status) statuses[String(key)] = status;
      else delete statuses[String(key)];
      return persist({ ...current, statuses });
    },
    [persist],
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

  const start = useCallback(
    (concurrency: number) => {
      const current = workRef.current;
      if (!check || !current) return;
      const rowsOf = new Map(check.result.products.map((p) => [p.key, p.rows]));
      const keys = check.result.products.filter((p) => p.problems.length === 0 && !current.statuses[String(p.key)]).map((p) => p.key);
      if (keys.length === 0) return;
      // One queue at a time: an earlier one (paused) must never send the same products as this one.
      queue.current?.cancel();
      void persist({ ...current, started: true, concurrency });
      const bodies = new Map<number, ReturnType<typeof bodyOf>['body']>();
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
        send: (key) => createProduct(bodies.get(key) ?? { name: '', enabled: 'true' }),
        onOutcome: async (key, outcome: Outcome) => {
          const body = bodies.get(key) ?? { name: '', enabled: 'true' };
          if (outcome.status === 'created') {
            await setStatus(key, { status: 'created', at: Date.now(), answer: outcome.answer, body });
            addCreated(body, outcome.answer);
          } else if (outcome.status === 'rejected') {
            await setStatus(key, {
              status: 'rejected',
              httpStatus: outcome.httpStatus,
              message: outcome.message,
              details: [...outcome.details],
            });
          } else await setStatus(key, { status: 'unknown', message: outcome.message });
        },
        onChange: (snapshot) => setProgress({ snapshot, total: keys.length }),
      });
      queue.current = q;
      q.start();
    },
    [check, persist, bodyOf, setStatus],
  );

  const startOver = useCallback(async () => {
    queue.current?.cancel();
    queue.current = null;
    fileRef.current = null;
    workRef.current = null;
    setFile(null);
    setWork(null);
    setCheck(null);
    setProgress(null);
    blobRef.current = null;
    setHasBlob(false);
    await store.clear().catch(() => setStorageFailed(true));
  }, [store]);

  useEffect(() => () => queue.current?.pause(), []);

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
    load,
    reread,
    /** Whether the file can be read again in another encoding or sheet (it is in memory, nothing sent). */
    canReread: hasBlob && !work?.started,
    mapColumn,
    fixCell,
    setStatus,
    start,
    pause: () => queue.current?.pause(),
    resume: () => queue.current?.resume(),
    cancel: () => queue.current?.cancel(),
    startOver,
    bodyOf,
  };
}
