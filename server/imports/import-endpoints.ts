/**
 * The imports' own endpoints (src/contract/imports.ts): list a site's open imports, create one, read one,
 * save its work (a stale version is refused with 409), take, renew and let go of its run (409 naming who runs
 * it), a person's decision on a product, and discard. Only for people who may create products on the
 * import's site (and the local demo); the run's events go to the activity record.
 */
import { may } from '../../src/contract/access';
import { IMPORT_MAX_BODY_BYTES, IMPORTS_PATHS, runningSentence } from '../../src/contract/imports';
import { sendError } from '../answers';
import type { ActivityStore } from '../activity/activity-store';
import { shortUserAgent } from '../activity/record-site-calls';
import { actorOf, starterOf, type Identity } from '../identity';
import { sendDone, sendJson, type Endpoint, type EndpointCall } from '../own-api';
import type { ImportStore } from './import-store';

const mayCreate = (who: Identity, siteId: string) => may(who, siteId, 'create');

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);
const isStrings = (value: unknown): value is string[] => Array.isArray(value) && value.every((item) => typeof item === 'string');

/** What is wrong with a file, or null: the shape every browser reads back. */
function fileProblem(file: unknown): string | null {
  if (!isObject(file)) return 'must be an object';
  if (typeof file.fileName !== 'string' || file.fileName.length === 0 || file.fileName.length > 500) return 'fileName must be a name';
  if (typeof file.delimiter !== 'string') return 'delimiter must be text';
  if (!isStrings(file.headers)) return 'headers must be a list of text';
  if (!Array.isArray(file.rows) || !file.rows.every(isStrings)) return 'rows must be lists of text';
  return null;
}

/** What is wrong with the work, or null. */
function workProblem(work: unknown): string | null {
  if (!isObject(work)) return 'must be an object';
  if (!Array.isArray(work.mapping) || !work.mapping.every((m) => m === null || typeof m === 'string')) return 'mapping must be a list';
  if (!isObject(work.fixes) || !Object.values(work.fixes).every((v) => typeof v === 'string')) return 'fixes must map cells to text';
  if (typeof work.concurrency !== 'number' || !Number.isInteger(work.concurrency) || work.concurrency < 1 || work.concurrency > 16) {
    return 'concurrency must be 1 to 16';
  }
  if (typeof work.started !== 'boolean') return 'started must be true or false';
  if (work.products !== undefined && (typeof work.products !== 'number' || !Number.isSafeInteger(work.products) || work.products < 0)) {
    return 'products must be a count';
  }
  return null;
}

const KNOWN = ['created', 'rejected', 'unknown', 'skipped'] as const;

/** Statuses a browser kept before the server did (an import of an earlier version), or null when malformed. */
function knownOf(products: unknown): { key: string; status: (typeof KNOWN)[number]; detail: string }[] | null {
  if (products === undefined) return [];
  if (!isObject(products)) return null;
  const known = [];
  for (const [key, value] of Object.entries(products)) {
    if (!isObject(value) || key.length > 100) return null;
    // On its way when that page died: it may have been created.
    const status = value.status === 'sending' ? 'unknown' : value.status;
    const found = KNOWN.find((k) => k === status);
    if (!found) return null;
    const { status: _status, ...detail } = value;
    known.push({ key, status: found, detail: JSON.stringify(detail) });
  }
  return known;
}

/** The work as kept: its known fields only (a browser's statuses stay in the browser; the server has its own). */
const keptWork = (work: Record<string, unknown>) =>
  JSON.stringify({
    mapping: work.mapping,
    fixes: work.fixes,
    concurrency: work.concurrency,
    started: work.started,
    products: work.products ?? 0,
  });

export function importEndpoints(options: {
  imports: ImportStore;
  activity: ActivityStore;
  siteIds: ReadonlySet<string>;
  now: () => number;
}): Endpoint[] {
  const { imports, activity, siteIds, now } = options;

  /** The import of `:id`, when the caller may work on its site; answers 404 or 403 itself otherwise. */
  async function importOf({ request, who, params }: EndpointCall): Promise<{ id: string; siteId: string } | undefined> {
    const id = params.id ?? '';
    const siteId = await imports.siteOf(id);
    if (siteId === undefined) {
      sendError(request.res, 404, 'There is no such import: it may have been discarded.');
      return undefined;
    }
    if (!mayCreate(who, siteId)) {
      sendError(request.res, 403, 'Only people who may create products on this site can see and run its imports.');
      return undefined;
    }
    return { id, siteId };
  }

  /** An import event in the activity record: who, which site, the file, its counts. */
  async function record(call: EndpointCall, id: string, siteId: string, action: string, extra: Record<string, unknown> = {}) {
    const found = await imports.summary(id, now());
    if (!found) return;
    await activity.append({
      at: now(),
      actor: actorOf(call.who),
      siteId,
      action,
      target: { name: found.fileName },
      requestId: null,
      address: call.request.req.socket.remoteAddress ?? null,
      userAgent: shortUserAgent(call.request.req.headers['user-agent']),
      outcome: 'ok',
      detail: { import: id, counts: found.counts, ...extra },
    });
  }

  const bad = (call: EndpointCall, field: string, message: string) =>
    sendError(call.request.res, 400, `The ${field} of this request is not right: it ${message}.`, [{ field, message }]);

  return [
    {
      method: 'GET',
      path: IMPORTS_PATHS.list,
      handle: async (call) => {
        const site = new URL(call.request.url, 'http://x').searchParams.get('site') ?? '';
        if (!siteIds.has(site)) return bad(call, 'site', 'must be one of this server’s sites');
        if (!mayCreate(call.who, site)) {
          sendError(call.request.res, 403, 'Only people who may create products on this site can see and run its imports.');
          return;
        }
        sendJson(call.request.res, 200, { imports: await imports.list(site, now()) });
      },
    },
    {
      method: 'POST',
      path: IMPORTS_PATHS.list,
      maxBodyBytes: IMPORT_MAX_BODY_BYTES,
      handle: async (call) => {
        const body = call.body;
        if (!isObject(body)) return bad(call, 'body', 'must be an object with site, file and work');
        const site = body.site;
        if (typeof site !== 'string' || !siteIds.has(site)) return bad(call, 'site', 'must be one of this server’s sites');
        const by = starterOf(call.who);
        if (!by || !mayCreate(call.who, site)) {
          sendError(call.request.res, 403, 'Only people who may create products on this site can start an import there.');
          return;
        }
        const fileWrong = fileProblem(body.file);
        if (fileWrong) return bad(call, 'file', fileWrong);
        const workWrong = workProblem(body.work);
        if (workWrong) return bad(call, 'work', workWrong);
        const known = knownOf(body.products);
        if (known === null) return bad(call, 'products', 'must map product keys to a status: created, rejected, unknown or skipped');
        const file = body.file as Record<string, unknown>;
        const id = await imports.create({
          known,
          siteId: site,
          by,
          fileName: file.fileName as string,
          file: JSON.stringify(file),
          work: keptWork(body.work as Record<string, unknown>),
          now: now(),
        });
        sendJson(call.request.res, 201, await imports.get(id, now()));
      },
    },
    {
      method: 'GET',
      path: IMPORTS_PATHS.one,
      handle: async (call) => {
        const found = await importOf(call);
        if (!found) return;
        const record = await imports.get(found.id, now());
        if (!record) return sendError(call.request.res, 404, 'There is no such import: it may have been discarded.');
        sendJson(call.request.res, 200, record);
      },
    },
    {
      method: 'PUT',
      path: IMPORTS_PATHS.work,
      handle: async (call) => {
        const found = await importOf(call);
        if (!found) return;
        const body = call.body;
        if (!isObject(body)) return bad(call, 'body', 'must be an object with version and work');
        if (typeof body.version !== 'number' || !Number.isSafeInteger(body.version)) return bad(call, 'version', 'must be a whole number');
        const workWrong = workProblem(body.work);
        if (workWrong) return bad(call, 'work', workWrong);
        const saved = await imports.updateWork(found.id, body.version, keptWork(body.work as Record<string, unknown>), now());
        if (saved === 'missing') return sendError(call.request.res, 404, 'There is no such import: it may have been discarded.');
        if (saved === 'stale') {
          sendError(call.request.res, 409, 'Someone changed this import since you opened it: it was loaded again with their changes.', [
            { field: 'version', message: 'is not the latest' },
          ]);
          return;
        }
        sendJson(call.request.res, 200, { version: saved });
      },
    },
    {
      method: 'PUT',
      path: IMPORTS_PATHS.file,
      maxBodyBytes: IMPORT_MAX_BODY_BYTES,
      handle: async (call) => {
        const found = await importOf(call);
        if (!found) return;
        const body = call.body;
        if (!isObject(body)) return bad(call, 'body', 'must be an object with version, file, work and moved');
        if (typeof body.version !== 'number' || !Number.isSafeInteger(body.version)) return bad(call, 'version', 'must be a whole number');
        const fileWrong = fileProblem(body.file);
        if (fileWrong) return bad(call, 'file', fileWrong);
        const workWrong = workProblem(body.work);
        if (workWrong) return bad(call, 'work', workWrong);
        const moved = body.moved;
        const whole = (n: unknown): n is number => typeof n === 'number' && Number.isSafeInteger(n);
        if (
          !isObject(moved) ||
          !whole(moved.start) ||
          !whole(moved.end) ||
          !whole(moved.delta) ||
          moved.start < 0 ||
          moved.end < moved.start
        ) {
          return bad(call, 'moved', 'must give the rows replaced (start, end) and how far later rows moved (delta)');
        }
        const saved = await imports.replaceFile(
          found.id,
          body.version,
          {
            file: JSON.stringify(body.file),
            work: keptWork(body.work as Record<string, unknown>),
            start: moved.start,
            end: moved.end,
            delta: moved.delta,
          },
          now(),
        );
        if (saved === 'missing') return sendError(call.request.res, 404, 'There is no such import: it may have been discarded.');
        if (saved === 'stale' || saved === 'running') {
          sendError(
            call.request.res,
            409,
            saved === 'stale'
              ? 'Someone changed this import since you opened it: open the product again from the import.'
              : 'Someone is running this import: pause it before changing its rows.',
            [{ field: 'version', message: saved }],
          );
          return;
        }
        sendJson(call.request.res, 200, { version: saved });
      },
    },
    {
      method: 'POST',
      path: IMPORTS_PATHS.run,
      handle: async (call) => {
        const found = await importOf(call);
        if (!found) return;
        const body = call.body === undefined ? {} : call.body;
        if (!isObject(body)) return bad(call, 'body', 'must be an object');
        const runner = body.runner ?? null;
        if (runner !== null && (typeof runner !== 'string' || runner.length > 100)) return bad(call, 'runner', 'must be the run’s token');
        const by = starterOf(call.who);
        if (!by) return sendError(call.request.res, 401, 'Sign in to use site-admin.');
        const claimed = await imports.claim(found.id, runner, by, now());
        if (claimed.kind === 'missing') return sendError(call.request.res, 404, 'There is no such import: it may have been discarded.');
        if (claimed.kind === 'held') {
          sendError(call.request.res, 409, runningSentence(claimed, 'en-GB', 'UTC'), [
            { field: 'runner', message: `${claimed.name} since ${new Date(claimed.since).toISOString()}` },
          ]);
          return;
        }
        if (claimed.took) await record(call, found.id, found.siteId, claimed.took === 'started' ? 'import.started' : 'import.resumed');
        sendJson(call.request.res, 200, { runner: claimed.token, leaseUntil: claimed.leaseUntil });
      },
    },
    {
      method: 'POST',
      path: IMPORTS_PATHS.release,
      handle: async (call) => {
        const found = await importOf(call);
        if (!found) return;
        const body = call.body;
        if (!isObject(body) || typeof body.runner !== 'string') return bad(call, 'runner', 'must be the run’s token');
        const finished = body.finished === true;
        const released = await imports.release(found.id, body.runner, finished, now());
        // Already let go (a lapse, or someone took over): nothing to record.
        if (released)
          await record(call, found.id, found.siteId, finished ? 'import.finished' : 'import.paused', finished ? { how: 'answered' } : {});
        sendDone(call.request.res);
      },
    },
    {
      method: 'PUT',
      path: IMPORTS_PATHS.product,
      handle: async (call) => {
        const found = await importOf(call);
        if (!found) return;
        const body = call.body;
        const status = isObject(body) ? body.status : undefined;
        if (status !== 'skipped' && status !== 'pending') return bad(call, 'status', 'must be skipped or pending');
        const decided = await imports.decide(found.id, call.params.key ?? '', status, now());
        if (decided === 'not-allowed') {
          sendError(call.request.res, 409, 'This product’s status does not allow that (a created product is never sent again).', [
            { field: 'status', message: 'not allowed from the product’s status' },
          ]);
          return;
        }
        sendDone(call.request.res);
      },
    },
    {
      method: 'DELETE',
      path: IMPORTS_PATHS.one,
      handle: async (call) => {
        const found = await importOf(call);
        if (!found) return;
        const record_ = await imports.summary(found.id, now());
        if (record_?.runner) {
          sendError(call.request.res, 409, `${runningSentence(record_.runner, 'en-GB', 'UTC')} Pause it before discarding it.`);
          return;
        }
        if (record_ && record_.endedAt === null) await record(call, found.id, found.siteId, 'import.finished', { how: 'discarded' });
        await imports.discard(found.id);
        sendDone(call.request.res);
      },
    },
  ];
}
