/**
 * The imports' own endpoints (src/contract/imports.ts): list a site's open imports, create one, read one,
 * save its work (a stale version is refused with 409), take, renew and let go of its run (409 naming who runs
 * it), a person's decision on a product, and discard. Only for people who may create products on the
 * import's site (and the local demo); the run's events go to the activity record.
 */
import { may } from '../../src/contract/access';
import {
  claimRunBodySchema,
  decideProductBodySchema,
  IMPORT_MAX_BODY_BYTES,
  IMPORTS_PATHS,
  newImportBodySchema,
  releaseRunBodySchema,
  replaceFileBodySchema,
  runningSentence,
  saveWorkBodySchema,
  type NewImportBody,
  type SharedWork,
} from '../../src/contract/imports';
import { sendError } from '../answers';
import type { ActivityStore } from '../activity/activity-store';
import { shortUserAgent } from '../activity/record-site-calls';
import { actorOf, starterOf, type Identity } from '../identity';
import { parseBody, sendDone, sendJson, type Endpoint, type EndpointCall } from '../own-api';
import type { ImportStore } from './import-store';

const mayCreate = (who: Identity, siteId: string) => may(who, siteId, 'create');

/** Statuses a browser kept before the server did (an import of an earlier version), as the server keeps them. */
function knownOf(products: NewImportBody['products']) {
  return Object.entries(products ?? {}).map(([key, { status, ...detail }]) => ({
    key,
    // On its way when that page died: it may have been created.
    status: status === 'sending' ? ('unknown' as const) : status,
    detail: JSON.stringify(detail),
  }));
}

/** The work as kept: its known fields only (a browser's statuses stay in the browser; the server has its own). */
const keptWork = (work: SharedWork) => JSON.stringify({ ...work, products: work.products ?? 0 });

export function importEndpoints(options: {
  imports: ImportStore;
  activity: ActivityStore;
  siteIds: ReadonlySet<string>;
  now: () => number;
  /** Told when a run is released as finished, once recorded (an approved import's change is then sent). */
  onFinished?: (importId: string, who: Identity) => Promise<void>;
}): Endpoint[] {
  const { imports, activity, siteIds, now, onFinished } = options;

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
        const body = parseBody(call.request.res, newImportBodySchema, call.body, 'Give the site, the file and the work of the new import.');
        if (!body) return;
        const site = body.site;
        if (!siteIds.has(site)) return bad(call, 'site', 'must be one of this server’s sites');
        const by = starterOf(call.who);
        if (!by || !mayCreate(call.who, site)) {
          sendError(call.request.res, 403, 'Only people who may create products on this site can start an import there.');
          return;
        }
        const id = await imports.create({
          known: knownOf(body.products),
          siteId: site,
          by,
          fileName: body.file.fileName,
          file: JSON.stringify(body.file),
          work: keptWork(body.work),
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
        const body = parseBody(call.request.res, saveWorkBodySchema, call.body, 'Give the version of the import you saw and its work.');
        if (!body) return;
        const saved = await imports.updateWork(found.id, body.version, keptWork(body.work), now());
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
        const body = parseBody(
          call.request.res,
          replaceFileBodySchema,
          call.body,
          'Give the version of the import you saw, its file, its work and the rows replaced (start, end) and how far later rows moved (delta).',
        );
        if (!body) return;
        const { moved } = body;
        const saved = await imports.replaceFile(
          found.id,
          body.version,
          {
            file: JSON.stringify(body.file),
            work: keptWork(body.work),
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
        const body = parseBody(
          call.request.res,
          claimRunBodySchema,
          call.body ?? {},
          'Give the run’s token to renew it, or none to take it.',
        );
        if (!body) return;
        const runner = body.runner ?? null;
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
        const body = parseBody(
          call.request.res,
          releaseRunBodySchema,
          call.body,
          'Give the run’s token, and whether every product was answered.',
        );
        if (!body) return;
        const finished = body.finished === true;
        const released = await imports.release(found.id, body.runner, finished, now());
        // Already let go (a lapse, or someone took over): nothing to record.
        if (released) {
          await record(call, found.id, found.siteId, finished ? 'import.finished' : 'import.paused', finished ? { how: 'answered' } : {});
          if (finished) await onFinished?.(found.id, call.who);
        }
        sendDone(call.request.res);
      },
    },
    {
      method: 'PUT',
      path: IMPORTS_PATHS.product,
      handle: async (call) => {
        const found = await importOf(call);
        if (!found) return;
        const body = parseBody(call.request.res, decideProductBodySchema, call.body, 'Say whether the product is skipped or pending.');
        if (!body) return;
        const decided = await imports.decide(found.id, call.params.key ?? '', body.status, now());
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
