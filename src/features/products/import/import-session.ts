/**
 * One import as a page works on it, without React: the file and the work on it (kept on the server, shared
 * with every browser and colleague, and copied to this browser for when the server cannot be reached),
 * each product's status, the version a save must name, the run's lease (one page at a time sends; see
 * docs/import.md) and the create queue. The server's calls, this browser's copy, the run's token store and
 * the timers are given to it, so its unit tests run it against stand-ins of each; `use-import.ts` shows its
 * state in React and feeds it the watch's reads.
 */
import { APPROVED_CHANGE_HEADER } from '@/contract/approvals';
import {
  IMPORT_PRODUCT_HEADER,
  IMPORT_RENEW_MS,
  IMPORT_RUNNER_HEADER,
  type ImportRecord,
  type ImportRunner,
  type ImportSummary,
  type SharedWork,
} from '@/contract/imports';
import type { WireProductUpdate } from '@/contract/products';
import type { WireProduct } from '@/contract/site-api';
import { createQueue, type CreateQueue, type Outcome, type QueueSnapshot } from './create-queue';
import type { ImportFile, ImportStore, ImportWork, ProductStatus, SavedImport } from './import-store';
import { fromRecord, saidOf, sharedWork, unreachable } from './server-import';

/** What the session asks of our server (server-import.ts in the browser). */
export interface ImportServer {
  listImports(siteId: string): Promise<ImportSummary[]>;
  readImport(id: string): Promise<ImportRecord>;
  createImport(siteId: string, file: ImportFile, work: SharedWork, known?: ImportWork['statuses']): Promise<ImportRecord>;
  saveWork(id: string, version: number, work: SharedWork): Promise<number>;
  discardImport(id: string): Promise<unknown>;
  claimRun(id: string, runner: string | null): Promise<{ runner: string }>;
  releaseRun(id: string, runner: string, finished: boolean): Promise<unknown>;
  decideProduct(id: string, key: string, status: 'skipped' | 'pending'): Promise<unknown>;
  /** One product's create, with the import's headers; resolves to the platform's answer or throws an ApiError. */
  createProduct(body: WireProduct, headers: Record<string, string>): Promise<Record<string, unknown>>;
  /**
   * One product's update, with the import's headers and the fingerprint of the product as the dry run read
   * it (our server refuses it 412 when the product changed since); resolves to the answer or throws an ApiError.
   */
  updateProduct(
    id: string,
    body: WireProductUpdate,
    fingerprint: string,
    headers: Record<string, string>,
  ): Promise<Record<string, unknown>>;
}

/** The run's token of this tab, per import: a reload takes back its own run instead of waiting for it to lapse. */
export interface RunnerTokens {
  read(id: string): string | null;
  write(id: string, token: string | null): void;
}

export interface Timers {
  setTimeout(run: () => void, ms: number): unknown;
  clearTimeout(timer: unknown): void;
  setInterval(run: () => void, ms: number): unknown;
  clearInterval(timer: unknown): void;
}

const realTimers: Timers = {
  setTimeout: (run, ms) => setTimeout(run, ms),
  clearTimeout: (timer) => clearTimeout(timer as ReturnType<typeof setTimeout>),
  setInterval: (run, ms) => setInterval(run, ms),
  clearInterval: (timer) => clearInterval(timer as ReturnType<typeof setInterval>),
};

export interface ImportSessionOptions {
  siteId: string;
  server: ImportServer;
  store: ImportStore;
  tokens: RunnerTokens;
  timers?: Timers;
  now?: () => number;
  /** Waits after the last change of the mapping or a fix before saving it to the server. */
  saveDelayMs?: number;
  renewMs?: number;
  /** A product the import created, for the site's created list in this browser. */
  onCreated?: (body: WireProduct, answer: Record<string, unknown>) => void;
}

export interface Progress {
  snapshot: QueueSnapshot<number>;
  /** Products this run set out to send. */
  total: number;
}

/** An update the dry run planned: the product of the site, its fingerprint as read then, and the body. */
export interface PlannedUpdate {
  id: string;
  fingerprint: string;
  body: WireProductUpdate;
}

/** What a run sends: the dry run's products without problems and not answered yet, and each one's body. */
export interface RunPlan {
  keys: readonly number[];
  /** The dry run's count of products, for the server's counts. */
  products: number;
  /** A new product's create body. */
  body: (key: number) => WireProduct;
  /** A product of the site: its update (absent or null: the product is new). */
  update?: (key: number) => PlannedUpdate | null;
  /**
   * The approved change this run's writes carry (where the site's rule covers imports): each row is sent
   * with it beside the import's own headers, and the server sends a row only if its body is the one approved.
   */
  approvedChange?: string;
}

export interface ImportState {
  /** Looking for the site's import at the start. */
  restoring: boolean;
  file: ImportFile | null;
  work: ImportWork | null;
  progress: Progress | null;
  /** This browser refused to keep its copy (storage full or disabled). */
  storageFailed: boolean;
  /** The server could not be reached: the page shows this browser's copy (as of `syncedAt`), and sending waits. */
  offline: boolean;
  /** The site's open imports, when there are several and none is open yet. */
  choices: ImportSummary[] | null;
  /** What the server said to something this page asked (a run someone else holds, a save made stale). */
  notice: string | null;
  /** Whether this page holds the run. */
  holding: boolean;
  /** Who runs this import elsewhere (a live lease), while this page does not. */
  heldBy: ImportRunner | null;
}

const INITIAL: ImportState = {
  restoring: true,
  file: null,
  work: null,
  progress: null,
  storageFailed: false,
  offline: false,
  choices: null,
  notice: null,
  holding: false,
  heldBy: null,
};

const UNREACHABLE_SENDING = 'The server cannot be reached, so nothing is sent: sending waits until it is back.';
const EMPTY_BODY: WireProduct = { name: '', enabled: 'true' };

export class ImportSession {
  private state: ImportState = INITIAL;
  private readonly listeners = new Set<() => void>();
  private readonly timers: Timers;
  private readonly now: () => number;
  private queue: CreateQueue<number> | null = null;
  private runner: string | null = null;
  private renewTimer: unknown = null;
  private saveTimer: unknown = null;
  /** Changes of this page not saved to the server yet. */
  private unsaved = false;
  /** A save is on its way; a read of the import that comes meanwhile is set aside, and made again after it. */
  private saving = false;
  private setAside = false;
  private productCount: number | undefined;
  private lastSignature = '';

  constructor(private readonly options: ImportSessionOptions) {
    this.timers = options.timers ?? realTimers;
    this.now = options.now ?? Date.now;
  }

  readonly subscribe = (listener: () => void) => {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  };

  readonly getState = (): ImportState => this.state;

  private set(patch: Partial<ImportState>) {
    const wasOffline = this.state.offline;
    this.state = { ...this.state, ...patch };
    for (const listener of this.listeners) listener();
    // Back online with changes not saved: they are saved now.
    if (wasOffline && !this.state.offline && this.unsaved && !this.saving) void this.save();
  }

  /** This browser's copy, written on every change (failures said, not fatal). */
  private cache(work: ImportWork) {
    return this.options.store.saveWork(work).then(
      () => {
        if (this.state.storageFailed) this.set({ storageFailed: false });
      },
      () => this.set({ storageFailed: true }),
    );
  }

  /** Shows `work` and keeps it in this browser. */
  private show(work: ImportWork) {
    this.set({ work });
    return this.cache(work);
  }

  /**
   * Takes the server's import: its file and work when the server's are newer than this page's, and its
   * statuses. A read older than what this page saved since (a poll that crossed a save) changes nothing.
   */
  private apply(record: ImportRecord, options: { file?: boolean } = {}) {
    const local = this.state.work;
    const same = local?.serverId === record.id;
    if (same && local.version !== undefined && record.version < local.version) return Promise.resolve();
    const newer = !same || local.version !== record.version;
    // A read that finds nothing new changes nothing (no render, no write to this browser's copy).
    const signature = Object.entries(record.products)
      .map(([key, p]) => `${key}:${p.status}:${p.at}`)
      .join(',');
    if (!newer && this.state.file !== null && signature === this.lastSignature) return Promise.resolve();
    this.lastSignature = signature;
    const next = fromRecord(record, same ? local.statuses : {});
    const work: ImportWork =
      newer || !local ? { ...next.work, syncedAt: this.now() } : { ...local, statuses: next.work.statuses, syncedAt: this.now() };
    const file = options.file !== false && (this.state.file === null || newer) ? next.file : this.state.file;
    if (file !== this.state.file && file) void this.options.store.saveFile(file).catch(() => this.set({ storageFailed: true }));
    this.set({ file, work, offline: false, choices: null });
    return this.cache(work);
  }

  /** Reads the server's import again and takes it, unless changes of this page wait to be saved. */
  private async readAgain(options: { file?: boolean } = {}) {
    const id = this.state.work?.serverId;
    if (!id) return;
    try {
      const record = await this.options.server.readImport(id);
      if (this.saving || this.unsaved) this.setAside = true;
      else await this.apply(record, options);
    } catch {
      // The watch reads it again soon.
    }
  }

  /**
   * A read of the import by the page's watch (while this page does not run it). Changes of this page not
   * saved yet are not overwritten: the read is set aside, and made again once they are saved.
   */
  received(record: ImportRecord) {
    if (this.state.holding || record.id !== this.state.work?.serverId) return Promise.resolve();
    this.set({ heldBy: record.runner });
    if (this.saving || this.unsaved) {
      this.setAside = true;
      // The server answers again: changes kept while it was away are saved now (see `set`).
      if (this.state.offline) this.set({ offline: false });
      return Promise.resolve();
    }
    return this.apply(record);
  }

  /** Opens the server's import `id`; a run this tab left (a reload) is let go first. */
  private async open(id: string) {
    const { server, tokens } = this.options;
    const left = tokens.read(id);
    if (left && this.runner === null) {
      tokens.write(id, null);
      await server.releaseRun(id, left, false).catch(() => undefined);
    }
    const record = await server.readImport(id);
    this.set({ heldBy: record.runner });
    await this.apply(record);
  }

  /** Finds the import to show as the page opens: see `restore`. */
  async find() {
    const saved = await this.options.store.load().catch(() => null);
    try {
      await this.restore('start', saved);
    } catch (error) {
      if (unreachable(error)) this.set({ offline: true });
      else this.set({ notice: saidOf(error) });
    } finally {
      this.set({ restoring: false });
    }
  }

  /**
   * This browser's import, if the server still has it; the site's one open import; or the list to choose
   * from. Without the server: this browser's copy, said so.
   */
  private async restore(after: 'start' | 'discard', saved: SavedImport | null) {
    const { server, siteId, store } = this.options;
    let open: ImportSummary[];
    try {
      open = await server.listImports(siteId);
    } catch (error) {
      if (saved && unreachable(error)) this.set({ file: saved.file, work: saved.work, offline: true });
      else if (unreachable(error)) this.set({ offline: true });
      else this.set({ notice: saidOf(error) });
      return;
    }
    this.set({ offline: false });
    const mine = saved?.work.serverId;
    if (saved && mine && open.some((one) => one.id === mine)) return this.open(mine);
    if (saved && !mine) {
      // Kept only in this browser (an earlier version, or loaded while the server was away): the server keeps
      // it now, with what this browser knows was answered, so nothing created is ever sent again.
      const record = await server.createImport(siteId, saved.file, sharedWork(saved.work), saved.work.statuses);
      return this.apply(record);
    }
    // This browser's copy of an import someone discarded is forgotten.
    if (saved) await store.clear().catch(() => undefined);
    if (after === 'start' && open.length === 1 && open[0]) return this.open(open[0].id);
    this.set({ choices: open.length > 0 ? open : null });
  }

  /** Saves the mapping, fixes and settings to the server; a stale version loads the fresh import instead. */
  async save() {
    const current = this.state.work;
    if (!current?.serverId || current.version === undefined) return;
    this.unsaved = false;
    this.saving = true;
    try {
      const version = await this.options.server.saveWork(current.serverId, current.version, sharedWork(current, this.productCount));
      const latest = this.state.work;
      if (latest?.serverId === current.serverId) await this.show({ ...latest, version, syncedAt: this.now() });
      if (this.state.offline) this.set({ offline: false });
    } catch (error) {
      if (unreachable(error)) {
        // Kept in this browser; saved with the next change, or when the server answers again.
        this.unsaved = true;
        this.set({ offline: true });
        return;
      }
      this.set({ notice: saidOf(error) });
      this.setAside = false;
      await this.open(current.serverId).catch(() => undefined);
      return;
    } finally {
      this.saving = false;
    }
    // A read of the import that came while this save was pending was set aside (it would have overwritten
    // the change): it is made again now, so what the server learnt meanwhile shows at once.
    if (this.setAside && !this.unsaved) {
      this.setAside = false;
      await this.readAgain();
    }
  }

  private persist(work: ImportWork) {
    this.unsaved = true;
    if (this.saveTimer !== null) this.timers.clearTimeout(this.saveTimer);
    this.saveTimer = this.timers.setTimeout(() => {
      this.saveTimer = null;
      void this.save();
    }, this.options.saveDelayMs ?? 400);
    return this.show(work);
  }

  /**
   * A file just read (parsed and its columns matched by the page): kept by the server first, so a colleague
   * sees it; without the server, in this browser only (sent later). The same file read again in another
   * encoding or sheet replaces the import it was, nothing having been sent from it.
   */
  async load(file: ImportFile, work: ImportWork, options: { rereading?: boolean } = {}) {
    const { server, siteId, store } = this.options;
    const previous = this.state.work;
    if (options.rereading && previous?.serverId !== undefined && !previous.started) {
      await server.discardImport(previous.serverId).catch(() => undefined);
    }
    let next = work;
    let offline = false;
    try {
      const record = await server.createImport(siteId, file, sharedWork(work));
      next = { ...work, serverId: record.id, version: record.version, syncedAt: this.now() };
    } catch (error) {
      if (!unreachable(error)) throw new Error(saidOf(error) ?? 'The server refused to keep this import.');
      offline = true;
    }
    this.productCount = undefined;
    this.set({ file, work: next, offline, progress: null, choices: null, notice: null, heldBy: null });
    await store.saveFile(file).catch(() => this.set({ storageFailed: true }));
    await this.cache(next);
  }

  /** The dry run's count of products, saved with the work. */
  counted(products: number) {
    this.productCount = products;
  }

  /** A new mapping of the file's columns to fields. */
  map(mapping: (string | null)[]) {
    const current = this.state.work;
    if (current) void this.persist({ ...current, mapping });
  }

  /** A cell's text fixed by hand; a rejected product, fixed, can be sent again. */
  fix(row: number, column: number, text: string, productKey: number) {
    const current = this.state.work;
    if (!current) return;
    const statuses = { ...current.statuses };
    if (statuses[String(productKey)]?.status === 'rejected') {
      delete statuses[String(productKey)];
      if (current.serverId) void this.options.server.decideProduct(current.serverId, String(productKey), 'pending').catch(() => undefined);
    }
    void this.persist({ ...current, fixes: { ...current.fixes, [`${row}:${column}`]: text }, statuses });
  }

  /** A product's status in this page (and this browser's copy); the server keeps its own from the answers. */
  setStatus(key: number, status: ProductStatus | null) {
    const current = this.state.work;
    if (!current) return Promise.resolve();
    const statuses = { ...current.statuses };
    if (status) statuses[String(key)] = status;
    else delete statuses[String(key)];
    return this.show({ ...current, statuses });
  }

  /** A person's decision on an unknown outcome: skip it, or send it again; the server keeps it for everyone. */
  async decide(key: number, decision: 'skip' | 'send-again') {
    const id = this.state.work?.serverId;
    if (id) {
      try {
        await this.options.server.decideProduct(id, String(key), decision === 'skip' ? 'skipped' : 'pending');
      } catch (error) {
        this.set({
          notice: unreachable(error)
            ? 'The server cannot be reached: the decision was not kept. Try again once it is back.'
            : saidOf(error),
        });
        return;
      }
    }
    await this.setStatus(key, decision === 'skip' ? { status: 'skipped', message: 'Skipped by hand after an unknown outcome' } : null);
  }

  private stopRenewing() {
    if (this.renewTimer !== null) this.timers.clearInterval(this.renewTimer);
    this.renewTimer = null;
  }

  /** Lets the run go (once nothing is on its way): a pause, a stop, or every product sent. */
  private async release(finished: boolean) {
    const id = this.state.work?.serverId;
    const token = this.runner;
    this.stopRenewing();
    this.runner = null;
    this.set({ holding: false });
    if (!id || !token) return;
    this.options.tokens.write(id, null);
    await this.options.server.releaseRun(id, token, finished).catch(() => undefined);
    // What the server learnt during the run shows now (a create whose answer this page lost, known created
    // there), not at the watch's next read.
    await this.readAgain({ file: false });
  }

  /** Takes the import's run on the server (or is told who holds it), and keeps it while sending. */
  private async takeRun(): Promise<boolean> {
    const { server, tokens } = this.options;
    const id = this.state.work?.serverId;
    if (!id) return false;
    try {
      const claimed = await server.claimRun(id, this.runner ?? tokens.read(id));
      this.runner = claimed.runner;
      tokens.write(id, claimed.runner);
    } catch (error) {
      if (unreachable(error)) this.set({ offline: true, notice: UNREACHABLE_SENDING });
      else {
        this.set({ notice: saidOf(error) });
        void server.readImport(id).then(
          (record) => this.set({ heldBy: record.runner }),
          () => undefined,
        );
      }
      return false;
    }
    this.set({ holding: true, heldBy: null, notice: null });
    this.stopRenewing();
    this.renewTimer = this.timers.setInterval(() => {
      const token = this.runner;
      if (!token) return;
      server.claimRun(id, token).then(
        () => {
          if (this.state.offline) this.set({ offline: false });
        },
        (error: unknown) => {
          // The lease may lapse meanwhile; the server then refuses this page's creates, so nothing is sent twice.
          if (unreachable(error)) return this.set({ offline: true });
          this.set({ notice: saidOf(error) });
          this.queue?.pause();
        },
      );
    }, this.options.renewMs ?? IMPORT_RENEW_MS);
    return true;
  }

  /** The server refused a create (409): already answered, or the run was lost. Stop, and show the server's truth. */
  private refusedByServer(message: string) {
    this.set({ notice: message });
    this.queue?.pause();
    void this.readAgain({ file: false });
  }

  /** Starts (or resumes after a reload) sending the products of `plan`, `concurrency` at a time. */
  async run(plan: RunPlan, concurrency: number) {
    const { server, siteId } = this.options;
    const current = this.state.work;
    const file = this.state.file;
    if (!current || !file || plan.keys.length === 0) return;
    let id = current.serverId;
    if (!id) {
      // Loaded while the server was away: it keeps the import first; nothing is sent without it.
      try {
        const record = await server.createImport(siteId, file, sharedWork(current, plan.products));
        id = record.id;
        await this.show({ ...current, serverId: id, version: record.version, syncedAt: this.now() });
        this.set({ offline: false });
      } catch (error) {
        this.set({ offline: unreachable(error) || this.state.offline, notice: unreachable(error) ? UNREACHABLE_SENDING : saidOf(error) });
        return;
      }
    }
    // Saved before the run is taken (its event counts the products) and before the first send, so a reload
    // or a colleague finds it started, as it was started.
    this.productCount = plan.products;
    if (this.saveTimer !== null) this.timers.clearTimeout(this.saveTimer);
    this.saveTimer = null;
    this.unsaved = true;
    await this.show({ ...(this.state.work ?? current), started: true, concurrency });
    await this.save();
    if (!(await this.takeRun())) return;
    // One queue at a time: an earlier one (paused) must never send the same products as this one.
    this.queue?.cancel();
    const importId = id;
    const bodies = new Map<number, WireProduct>();
    const updates = new Map<number, PlannedUpdate>();
    let released = false;
    const queue = createQueue<number>({
      keys: plan.keys,
      concurrency,
      // "Sending" is shown at once; this browser's copy is written meanwhile, not waited for: the server
      // marks the product sending itself before the create leaves (the truth a reload reads), and a send
      // held up by a local write cost every product a write's time (measured: most of a product's time at
      // 1 at a time beside a platform of 100 ms).
      beforeSend: (key) => {
        const update = plan.update?.(key) ?? null;
        if (update) updates.set(key, update);
        else bodies.set(key, plan.body(key));
        void this.setStatus(key, { status: 'sending', since: this.now() });
        return Promise.resolve();
      },
      // Held back by a back-off or a pause after its "sending" was written: it was not sent.
      onHeld: (key) => this.setStatus(key, null),
      send: (key) => {
        const headers: Record<string, string> = {
          [IMPORT_PRODUCT_HEADER]: `${importId}/${key}`,
          [IMPORT_RUNNER_HEADER]: this.runner ?? '',
        };
        if (plan.approvedChange !== undefined) headers[APPROVED_CHANGE_HEADER] = plan.approvedChange;
        const update = updates.get(key);
        return update
          ? server.updateProduct(update.id, update.body, update.fingerprint, headers)
          : server.createProduct(bodies.get(key) ?? EMPTY_BODY, headers);
      },
      onOutcome: (key, outcome) => {
        const update = updates.get(key);
        return update ? this.updateAnswered(key, outcome, update) : this.answered(key, outcome, bodies.get(key) ?? EMPTY_BODY);
      },
      onChange: (snapshot) => {
        this.set({ progress: { snapshot, total: plan.keys.length } });
        const stopped = snapshot.state === 'paused' || snapshot.state === 'cancelled' || snapshot.state === 'done';
        if (stopped && snapshot.inFlight.length === 0 && !released && this.queue === queue) {
          released = true;
          void this.release(snapshot.state === 'done');
        }
      },
    });
    this.queue = queue;
    queue.start();
  }

  private async answered(key: number, outcome: Outcome, body: WireProduct) {
    if (outcome.status === 'created') {
      // Shown at once; the queue's next send does not wait for this browser's copy, which the server's
      // record (written before the browser heard the answer) backs.
      void this.setStatus(key, { status: 'created', at: this.now(), answer: outcome.answer, body });
      this.options.onCreated?.(body, outcome.answer);
    } else if (outcome.status === 'rejected' && outcome.httpStatus === 409) {
      // Our server's refusal, never the platform's (it does not answer 409): nothing was sent.
      await this.setStatus(key, null);
      this.refusedByServer(outcome.message);
    } else if (outcome.status === 'rejected') {
      const { httpStatus, message, details } = outcome;
      await this.setStatus(key, { status: 'rejected', httpStatus, message, details: [...details] });
    } else await this.setStatus(key, { status: 'unknown', message: outcome.message });
  }

  private async updateAnswered(key: number, outcome: Outcome, update: PlannedUpdate) {
    if (outcome.status === 'created') {
      void this.setStatus(key, { status: 'updated', at: this.now(), answer: outcome.answer, body: update.body });
    } else if (outcome.status === 'rejected' && outcome.httpStatus === 412) {
      // Our server read the product again just before sending and found it changed since the dry run:
      // nothing was sent, and it is never sent by itself (the person checks it again first).
      await this.setStatus(key, {
        status: 'conflict',
        message: 'Changed on the platform since the dry run: this update was not sent. Check it again to see the product as it is now.',
      });
    } else await this.answered(key, outcome, EMPTY_BODY);
  }

  /** Sends again what is left, once the run is taken back. */
  async resume() {
    const queue = this.queue;
    if (!queue) return;
    if (!this.runner && !(await this.takeRun())) return;
    queue.resume();
  }

  pause() {
    this.queue?.pause();
  }

  cancel() {
    this.queue?.cancel();
  }

  /** Discards the import (on the server too) and looks for another, as at the start. */
  async startOver() {
    const id = this.state.work?.serverId;
    if (id) {
      try {
        await this.options.server.discardImport(id);
      } catch (error) {
        // Without the server, only this browser forgets it; the server's stays for whoever opens it.
        if (!unreachable(error)) return this.set({ notice: saidOf(error) });
      }
    }
    this.queue?.cancel();
    this.queue = null;
    this.set({ file: null, work: null, progress: null, notice: null, heldBy: null });
    await this.options.store.clear().catch(() => this.set({ storageFailed: true }));
    await this.restore('discard', null).catch(() => undefined);
  }

  /** Opens one of the site's open imports. */
  choose(id: string) {
    this.set({ notice: null });
    return this.open(id).catch((error: unknown) =>
      this.set({ notice: unreachable(error) ? 'The server cannot be reached.' : saidOf(error) }),
    );
  }

  /** The page goes away: the run is let go at once by `leave` (a reload takes it back by its token anyway). */
  leave(releaseOnLeave: (id: string, runner: string) => void) {
    const id = this.state.work?.serverId;
    if (id && this.runner) releaseOnLeave(id, this.runner);
  }

  /** The page is closed: nothing more is started, changes waiting are saved now. */
  dispose() {
    this.queue?.pause();
    this.stopRenewing();
    if (this.saveTimer !== null) {
      this.timers.clearTimeout(this.saveTimer);
      this.saveTimer = null;
      if (this.unsaved) void this.save();
    }
  }
}
