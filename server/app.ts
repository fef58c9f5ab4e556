/**
 * The server's request handling, shared by `npm start` (production, serving dist/) and `npm run dev`
 * (mounted as middleware in Vite's dev server): one pipeline of small steps that every request goes
 * through, top to bottom, until one of them answers. The request line is parsed once (pipeline/context.ts);
 * each step reads what the steps before it learnt, and either answers (a refusal, in the spec's error
 * shape) or hands the request on. The steps are listed in createSiteAdminServer below.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { siteInfoOf, type SiteInfo } from '../src/contract/site-info';
import { sendError } from './answers';
import { createActivityStore, type ActivityStore } from './activity/activity-store';
import { activityEndpoints } from './activity/activity-endpoints';
import { createdProductsEndpoints } from './activity/created-products-endpoints';
import { profileCheckEndpoints, recordProfileLoaded } from './activity/profile-checks';
import { recordSiteCalls, shortUserAgent } from './activity/record-site-calls';
import { createAccounts, prepareAccounts, type Accounts } from './auth/accounts';
import { createPasskeys } from './auth/passkeys';
import { accountEndpoints } from './auth/account-endpoints';
import { linkEndpoints } from './auth/link-endpoints';
import { peopleEndpoints } from './auth/people-endpoints';
import { seedDemoPeople } from './auth/demo-people';
import { signInEndpoints } from './auth/sign-in-endpoints';
import { singleSignOnEndpoints } from './auth/single-sign-on';
import { ConfigError, type ServerConfig } from './config';
import { isLoopbackHost, LOOPBACK_HOSTS } from './hosts';
import { createLinkStore } from './db/link-store';
import { openDatabase, type AppDatabase } from './db/open';
import { createLoginThrottle, type LoginLimits } from './auth/login-throttle';
import { createOwnApi } from './own-api';
import { authenticate } from './pipeline/authentication';
import { checkPermissions } from './pipeline/permissions';
import { parseRequest, runSteps, type ResolvedSite, type Step } from './pipeline/context';
import { checkHost } from './pipeline/host-check';
import { allowOperation } from './pipeline/operations';
import { logSiteCalls, type RequestLogEntry } from './pipeline/request-log';
import { checkSameOrigin } from './pipeline/same-origin';
import { addSecurityHeaders } from './pipeline/security-headers';
import { resolveSite } from './pipeline/site-resolution';
import { refuseUnreadBodies } from './pipeline/unread-bodies';
import { createProxy } from './proxy';
import { createPlatformReader, type PlatformReader } from './platform-reader';
import { startSandbox, startSandboxWorker, type RunningSandbox } from './sandbox/start';
import { createStaticFiles } from './static-files';
import { sessionIdOf } from './auth/session-cookie';
import { guardImportCreates } from './imports/guard-import-creates';
import { guardProductUpdates } from './products/guard-product-updates';
import { DEFAULT_PRODUCT_RECORD_SHAPE } from '../src/contract/products';
import { importEndpoints } from './imports/import-endpoints';
import { createImportStore, type ImportStore } from './imports/import-store';
import { caseWorkEndpoints, pruneCaseNotes } from './inbox/case-work-endpoints';
import { createCaseWorkStore } from './inbox/case-work-store';
import { caseExportEndpoints } from './inbox/case-export';
import { roleCapabilityEndpoints } from './auth/role-capability-endpoints';
import { inboxCountsEndpoints } from './inbox/inbox-counts';
import { approvalEndpoints } from './approvals/approval-endpoints';
import { createApprovalStore } from './approvals/approval-store';
import { createApprovals } from './approvals/approvals';
import { importFinished, requireApproval } from './approvals/require-approval';
import { createInboxPoll, type InboxPoll } from './inbox/inbox-poll';

/** How often the activity record's old entries are pruned (and once at start). */
const PRUNE_INTERVAL_MS = 60 * 60_000;

/**
 * Prunes the activity record's entries older than `days` now and every hour, in small batches, and does
 * `alsoHourly` (clearing ended sessions, each recorded as an expiry); returns what stops it (waiting for a
 * prune under way).
 */
function pruneActivity(activity: ActivityStore, days: number, now: () => number, alsoHourly: () => Promise<unknown>): () => Promise<void> {
  let running: Promise<unknown> = Promise.resolve();
  const prune = () => {
    running = Promise.all([activity.prune(now() - days * 86_400_000, now()), alsoHourly()]).catch((error: unknown) => {
      console.error('site-admin: pruning the activity record failed; it is tried again within the hour', error);
    });
  };
  prune();
  const timer = setInterval(prune, PRUNE_INTERVAL_MS);
  timer.unref();
  return async () => {
    clearInterval(timer);
    await running;
  };
}

/** How long the server waits at start for the Redis of REDIS_URL. */
const REDIS_CONNECT_TIMEOUT_MS = 5_000;

/** Connects to REDIS_URL; ioredis is loaded only when one is set. */
async function connectRedis(url: URL) {
  const { Redis } = await import('ioredis');
  const client = new Redis(url.href, {
    lazyConnect: true,
    // Commands fail at once while Redis is away, and the login counts in memory meanwhile.
    enableOfflineQueue: false,
    maxRetriesPerRequest: 1,
    connectTimeout: REDIS_CONNECT_TIMEOUT_MS,
  });
  // Errors while reconnecting are expected; the login falls back to memory.
  client.on('error', () => undefined);
  try {
    await client.connect();
  } catch (error) {
    client.disconnect();
    throw new ConfigError(`REDIS_URL is set, but Redis at ${url.host} could not be reached (${(error as Error).message}).`);
  }
  return client;
}

export interface SiteAdminServer {
  /** Handles a request, or calls next() for one that is not ours (dev: Vite serves it). */
  handle(req: IncomingMessage, res: ServerResponse, next?: () => void): void;
  /** Every site, as /api/sites lists it. */
  sites: readonly SiteInfo[];
  sandbox: RunningSandbox | undefined;
  /** site-admin's own database (people, sessions), migrated at start. */
  database: AppDatabase;
  /** People, sessions and who a request is from, on that database. */
  accounts: Accounts;
  /** The activity record, on that database. */
  activity: ActivityStore;
  /** Imports kept on the server, on that database. */
  imports: ImportStore;
  /** The server's own reads of each site's platform, by site id of the profile. */
  platformReaders: ReadonlyMap<string, PlatformReader>;
  /** The shared reading of each watched form's newest cases (the navigation's counts). */
  inboxPoll: InboxPoll;
  close(): Promise<void>;
}

export interface CreateServerOptions {
  /** The built app to serve; omitted in dev, where Vite serves it. */
  distDir?: string;
  log?: (entry: RequestLogEntry) => void;
  /**
   * Where the sandbox runs when a site needs it: in a worker thread of its own (`npm start`: the proxy and
   * the sandbox each get a thread, so both cores work), or on this thread (the default; tests).
   */
  sandboxThread?: 'worker' | 'this';
  /** The server's clock (sessions' time-outs); Date.now unless a test moves it. */
  now?: () => number;
  /** The login throttle's limits; its defaults unless a test needs a limit reached in a few attempts. */
  loginLimits?: Partial<LoginLimits>;
  /**
   * Builds the pipeline without the activity record's step, so site calls go unrecorded. Only the bench's
   * own entry (bench/server-without-record.ts) passes it, to measure what the record costs a lookup and a
   * create against the same server without it; no setting, variable or flag of the server reaches it, so
   * nobody running site-admin can turn the record off.
   */
  withoutActivityRecord?: true;
  /** The shared reading of new cases is not ticked by a timer: the test calls `inboxPoll.tick()` itself, with its clock. */
  inboxPollByHand?: true;
}

export async function createSiteAdminServer(config: ServerConfig, options: CreateServerOptions = {}): Promise<SiteAdminServer> {
  // First, so that a database that cannot be reached or is of a newer layout stops the start before anything runs.
  const database = await openDatabase(config.database);
  try {
    return await startServing(config, options, database);
  } catch (error) {
    await database.close();
    throw error;
  }
}

async function startServing(config: ServerConfig, options: CreateServerOptions, database: AppDatabase): Promise<SiteAdminServer> {
  const sandboxSiteIds = [...new Set(config.sites.filter((site) => site.upstream === 'sandbox').map((site) => site.siteId))];
  const sandbox =
    sandboxSiteIds.length === 0
      ? undefined
      : await (options.sandboxThread === 'worker' ? startSandboxWorker : startSandbox)({
          dataDir: config.sandbox.dataDir,
          apiKey: config.sandbox.apiKey,
          siteIds: sandboxSiteIds,
          port: config.sandbox.port,
          maxBodyBytes: config.maxBodyBytes,
          // In-process, the sandbox listens on loopback: it answers loopback names only.
          allowedHosts: LOOPBACK_HOSTS,
        });

  // One proxy per site, built from that site alone: its address, its key, its site id, its pool.
  const sites = new Map<string, ResolvedSite>(
    config.sites.map((site) => {
      const upstream = site.upstream === 'sandbox' ? sandbox?.baseUrl : site.upstream;
      if (!upstream) throw new Error(`No upstream for site "${site.profile.id}".`);
      const forward = createProxy({
        upstream,
        apiKey: site.apiKey,
        siteId: site.siteId,
        timeoutMs: config.proxyTimeoutMs,
        maxBodyBytes: config.maxBodyBytes,
      });
      return [site.profile.id, { id: site.profile.id, forward }] as const;
    }),
  );
  // The server's own reads of each site (the inbox's shared reading, an export's pages): same address, key and site id.
  const platformReaders = new Map<string, PlatformReader>(
    config.sites.map((site) => {
      const upstream = site.upstream === 'sandbox' ? sandbox?.baseUrl : site.upstream;
      if (!upstream) throw new Error(`No upstream for site "${site.profile.id}".`);
      const reader = createPlatformReader({
        upstream,
        apiKey: site.apiKey,
        siteId: site.siteId,
        timeoutMs: config.proxyTimeoutMs,
        envelope: site.profile.lists?.envelope,
      });
      return [site.profile.id, reader] as const;
    }),
  );
  const siteInfos = config.sites.map((site) => siteInfoOf(site.profile));
  // Each site's list envelope, for the record's reading of the ids a list showed.
  const listEnvelopes = new Map(
    config.sites.flatMap((site) => (site.profile.lists?.envelope ? [[site.profile.id, site.profile.lists.envelope] as const] : [])),
  );
  const siteNames = new Map(siteInfos.map((site) => [site.id, site.name]));
  // Each site's product record shape, where its profile names one: updates are checked in the one shape.
  const recordShapes = new Map(
    config.sites.flatMap((site) => {
      const record = site.profile.products?.record;
      return record ? [[site.profile.id, { ...DEFAULT_PRODUCT_RECORD_SHAPE, ...record }] as const] : [];
    }),
  );

  const loopback = isLoopbackHost(config.host);
  const accounts = createAccounts({ database, sessions: config.sessions, demoAllowed: loopback, now: options.now, sites: siteInfos });
  // The stakeholder demo's people (sandbox sites only, as config.ts makes sure), shown on the sign-in page;
  // before the check that someone can sign in, as they can.
  const demoPeople = config.demoPeople ? await seedDemoPeople(accounts, siteInfos) : [];
  await prepareAccounts(accounts, config, loopback);
  const activity = createActivityStore(database);
  accounts.recordWith((event) =>
    activity
      .append({
        at: accounts.now(),
        actor: event.person ? { kind: 'person', ...event.person } : { kind: 'anonymous' },
        action: event.action,
        outcome: event.action === 'sign-in.failed' ? 'refused' : 'ok',
        address: event.req?.socket.remoteAddress ?? null,
        userAgent: shortUserAgent(event.req?.headers['user-agent']),
        target: event.subject ? { name: event.subject.name } : undefined,
        detail:
          event.action === 'person.changed'
            ? { change: event.change ?? null, person: event.subject ?? null, ...event.detail }
            : { method: event.method ?? null, ...(event.reason ? { reason: event.reason } : {}) },
      })
      .then(() => undefined),
  );
  // The server's own check of the profile, passed (or it would not have started): which sites, which file.
  await recordProfileLoaded(activity, config, accounts.now);
  const caseWork = createCaseWorkStore(database);
  // Hourly (and at start) also the whole chain verified, which the Activity page's check (activity.check) relies on,
  // and the notes on cases past their own retention pruned.
  const stopPruning = pruneActivity(activity, config.activityRetentionDays, accounts.now, () =>
    Promise.all([
      accounts.clearEndedSessions(),
      activity.verify(),
      pruneCaseNotes(caseWork, activity, config.caseNotesRetentionDays, accounts.now()),
    ]),
  );
  const redis = config.redisUrl ? await connectRedis(config.redisUrl) : undefined;
  // The device cookies' key is the database's, so every instance sharing it accepts the others' cookies.
  const throttle = createLoginThrottle({
    deviceKey: await accounts.settings.secretKey('device-cookie-key', accounts.now()),
    limits: options.loginLimits,
    redis,
  });
  const passkeys = createPasskeys({ accounts, throttle, database });
  const links = createLinkStore(database.db);
  const imports = createImportStore(database);
  // The forms of each site's profile: what the navigation counts and the shared reading reads.
  const formsOf = new Map(config.sites.map((site) => [site.profile.id, Object.keys(site.profile.forms ?? {})] as const));
  const inboxPoll = createInboxPoll({
    db: database.db,
    sites: [...formsOf].map(([id, forms]) => ({ id, forms })),
    readers: platformReaders,
    intervalMs: config.inboxPollMs,
    // Longer than a reading may take, so a live reading is never read again beside it.
    leaseMs: config.proxyTimeoutMs + 5_000,
    now: accounts.now,
  });
  // A pass every fifth of the interval: a form first asked about is read within that, and each form at
  // most once an interval (the lease's condition), whichever instance's pass comes first.
  if (!options.inboxPollByHand) inboxPoll.start(Math.max(1_000, Math.floor(config.inboxPollMs / 5)));
  const approvals = createApprovals({
    store: createApprovalStore(database.db),
    activity,
    now: accounts.now,
    expiryDays: config.approvalExpiryDays,
    // The update's read and the write itself, each bounded by the proxy's timeout, and a minute more.
    stuckAfterMs: 2 * config.proxyTimeoutMs + 60_000,
  });
  const ownApi = createOwnApi([
    ...activityEndpoints(activity),
    ...profileCheckEndpoints(activity, accounts.now),
    ...importEndpoints({
      imports,
      activity,
      siteIds: new Set(siteInfos.map((site) => site.id)),
      now: accounts.now,
      onFinished: (importId, who) => importFinished(approvals, importId, who),
    }),
    ...approvalEndpoints({ approvals, sites: siteInfos, shapes: recordShapes }),
    ...createdProductsEndpoints(activity, new Set(siteInfos.map((site) => site.id))),
    ...caseWorkEndpoints({ work: caseWork, activity, siteNames, now: accounts.now }),
    ...inboxCountsEndpoints({ database, formsOf, now: accounts.now, pollMs: config.inboxPollMs }),
    ...signInEndpoints({
      accounts,
      throttle,
      sites: siteInfos,
      ways: {
        options: () =>
          Promise.resolve({
            passkey: true,
            singleSignOn: config.singleSignOn ? { name: config.singleSignOn.name } : null,
            demoPeople,
          }),
        secondFactor: passkeys.secondFactor,
      },
    }),
    ...passkeys.endpoints,
    ...(config.singleSignOn ? singleSignOnEndpoints({ setting: config.singleSignOn, accounts, database, throttle }) : []),
    ...accountEndpoints({ accounts, throttle }),
    ...peopleEndpoints({ accounts, links, sites: siteInfos }),
    ...roleCapabilityEndpoints({ accounts, activity, sites: siteInfos }),
    ...caseExportEndpoints({ sites: siteInfos, platformReaders, database, activity, now: accounts.now }),
    ...linkEndpoints({ accounts, links }),
  ]);
  const staticFiles = options.distDir
    ? createStaticFiles(options.distDir, {
        // Names the sign-in page's scripts with the page when that is what the browser will be shown.
        signInExpected: async (req) => sessionIdOf(req, accounts.cookie) === undefined && !(await accounts.inDemo()),
      })
    : undefined;

  /** The last step: a site's admitted operation goes to its proxy, the rest to our own API or the app. */
  const answer: Step = (request) => {
    const { req, res, address, site, operation, requestId } = request;
    if (address.kind === 'site') {
      // Site resolution and the allowlist let no site's call through without both.
      if (site && operation && requestId) site.forward(req, res, operation, requestId, request.forwardHooks);
      else sendError(res, 500, 'The server lost track of this request.');
    } else if (address.kind === 'own-api') {
      ownApi.answer(request);
    } else if (staticFiles) {
      staticFiles(req, res);
    } else if (request.passOn) {
      // Dev: Vite serves the app.
      request.passOn();
    } else {
      sendError(res, 404, 'This server serves no built app.');
    }
  };

  const pipeline = runSteps([
    addSecurityHeaders, // on every answer, the refusals of the steps below included
    checkHost(config.allowedHosts), // 421 for a Host that is not ours (DNS rebinding)
    refuseUnreadBodies(ownApi), // 400, 404, 405: a body where nothing reads one, refused unread
    authenticate((req, res, options) => accounts.identify(req, res, options), ownApi), // 401 for a site's call or our API without a session; sets request.who
    checkSameOrigin, // 403 for a change that does not come from our own pages
    resolveSite(sites), // 404 for a site that is not configured; sets request.site
    logSiteCalls(options.log), // x-request-id, and a log line per site's call
    allowOperation(config.maxBodyBytes), // 404, 422, 400, 413: only the spec's two operations; sets request.operation
    checkPermissions(siteNames), // 403 for what the person's grants do not allow on that site; nothing is forwarded
    requireApproval(approvals, siteNames), // 403, 409: a write a site's rule holds back goes on only as the approved change it carries, byte for byte, once
    guardProductUpdates(platformReaders, activity, recordShapes), // 428, 412, 422: an update must name the product as read, which must still be so
    // the activity record: a create before it leaves, every outcome before the browser hears it
    ...(options.withoutActivityRecord ? [] : [recordSiteCalls(activity, accounts.now, listEnvelopes)]),
    guardImportCreates(imports, accounts.now), // 409 for an import's product already created or on its way, or without the run
    answer,
  ]);

  return {
    sites: siteInfos,
    sandbox,
    database,
    accounts,
    activity,
    imports,
    platformReaders,
    inboxPoll,
    handle(req, res, next) {
      pipeline(parseRequest(req, res, next));
    },
    close: async () => {
      await stopPruning();
      await inboxPoll.stop();
      await sandbox?.close();
      redis?.disconnect();
      await database.close();
    },
  };
}
