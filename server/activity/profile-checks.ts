/**
 * Site profiles in the activity record: the server's own check of SITE_PROFILE at start (`profile.loaded`:
 * which sites, and the SHA-256 of the file, so two instances or two starts can be told apart), and a
 * person's check in the Settings page (`profile.check`), which runs in their browser and tells the record
 * only its outcome, how many problems it found and the site ids the profile names. Never the profile's
 * content: its addresses, its key variables, any key.
 */
import { ACTIVITY_PATHS, profileCheckReportSchema } from '../../src/contract/activity';
import { parseBody } from '../auth/endpoint-helpers';
import type { ServerConfig } from '../config';
import { sendDone, type Endpoint } from '../own-api';
import type { ActivityStore } from './activity-store';
import { actorOf } from '../identity';
import { shortUserAgent } from './record-site-calls';

/** `POST /api/activity/profile-checks`: anyone signed in may say they checked a profile. */
export function profileCheckEndpoints(activity: ActivityStore, now: () => number): Endpoint[] {
  return [
    {
      method: 'POST',
      path: ACTIVITY_PATHS.profileCheck,
      handle: async ({ request, who, body }) => {
        const report = parseBody(
          request.res,
          profileCheckReportSchema,
          body,
          'Report a profile check as {outcome, problems, sites}: nothing of the profile itself.',
        );
        if (!report) return;
        await activity.append({
          at: now(),
          actor: actorOf(who),
          action: 'profile.check',
          requestId: request.requestId ?? null,
          address: request.req.socket.remoteAddress ?? null,
          userAgent: shortUserAgent(request.req.headers['user-agent']),
          outcome: report.outcome,
          detail: { problems: report.problems, sites: report.sites },
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
