/**
 * Site profiles in the activity record: the server's own check of SITE_PROFILE at start (`profile.loaded`:
 * which sites, and the SHA-256 of the file, so two instances or two starts can be told apart), and a
 * person's check in the Settings page (`profile.check`), which runs in their browser and tells the record
 * only its outcome, how many problems it found and the site ids the profile names. Never the profile's
 * content: its addresses, its key variables, any key.
 */
import { ACTIVITY_PATHS, MAX_REPORTED_SITE_ID, MAX_REPORTED_SITES, type ProfileCheckReport } from '../../src/contract/activity';
import { isJsonObject } from '../../src/contract/site-api-basics';
import { sendError } from '../answers';
import type { ServerConfig } from '../config';
import { sendDone, type Endpoint } from '../own-api';
import type { ActivityStore } from './activity-store';
import { actorOf } from '../identity';
import { shortUserAgent } from './record-site-calls';

/** The report of a body, or the reason it cannot be one. */
export function readProfileCheckReport(body: unknown): { report: ProfileCheckReport } | { problem: { field: string; message: string } } {
  if (!isJsonObject(body)) return { problem: { field: 'body', message: 'must be an object' } };
  const extra = Object.keys(body).find((key) => key !== 'outcome' && key !== 'problems' && key !== 'sites');
  // Only the three fields: a body that carries more (the profile itself) is refused, not trimmed.
  if (extra !== undefined) return { problem: { field: extra, message: 'is not part of a report' } };
  const { outcome, problems, sites } = body;
  if (outcome !== 'ok' && outcome !== 'problems') return { problem: { field: 'outcome', message: 'must be ok or problems' } };
  if (typeof problems !== 'number' || !Number.isSafeInteger(problems) || problems < 0) {
    return { problem: { field: 'problems', message: 'must be a count' } };
  }
  if ((outcome === 'ok') !== (problems === 0)) {
    return { problem: { field: 'problems', message: 'must be 0 exactly when the outcome is ok' } };
  }
  if (
    !Array.isArray(sites) ||
    sites.length > MAX_REPORTED_SITES ||
    !sites.every((site) => typeof site === 'string' && site.length > 0 && site.length <= MAX_REPORTED_SITE_ID)
  ) {
    return {
      problem: {
        field: 'sites',
        message: `must be at most ${MAX_REPORTED_SITES} site ids of at most ${MAX_REPORTED_SITE_ID} characters`,
      },
    };
  }
  return { report: { outcome, problems, sites: sites as string[] } };
}

/** `POST /api/activity/profile-checks`: anyone signed in may say they checked a profile. */
export function profileCheckEndpoints(activity: ActivityStore, now: () => number): Endpoint[] {
  return [
    {
      method: 'POST',
      path: ACTIVITY_PATHS.profileCheck,
      handle: async ({ request, who, body }) => {
        const read = readProfileCheckReport(body);
        if ('problem' in read) {
          sendError(request.res, 400, 'Report a profile check as {outcome, problems, sites}: nothing of the profile itself.', [
            read.problem,
          ]);
          return;
        }
        await activity.append({
          at: now(),
          actor: actorOf(who),
          action: 'profile.check',
          requestId: request.requestId ?? null,
          address: request.req.socket.remoteAddress ?? null,
          userAgent: shortUserAgent(request.req.headers['user-agent']),
          outcome: read.report.outcome,
          detail: { problems: read.report.problems, sites: read.report.sites },
        });
        sendDone(request.res);
      },
    },
  ];
}

/**
 * Records that this server started on the profile of `config` (when it has one): the file, its SHA-256 and
 * each site's id and kind of platform (sandbox or live), never a key or the variable that holds one.
 */
export async function recordProfileLoaded(activity: ActivityStore, config: ServerConfig, now: () => number): Promise<void> {
  if (!config.siteProfile) return;
  await activity.append({
    at: now(),
    actor: { kind: 'anonymous' },
    action: 'profile.loaded',
    outcome: 'ok',
    detail: {
      via: 'server start',
      file: config.siteProfile,
      sha256: config.siteProfileSha256 ?? null,
      sites: config.sites.map((site) => ({ id: site.profile.id, platform: site.upstream === 'sandbox' ? 'sandbox' : 'live' })),
    },
  });
}
