/**
 * What each role may do, adjusted by owners of every site (ROLE_OVERRIDES_PATH): the overrides of the roles'
 * defaults per site (or every site) and role, of the adjustable capabilities only (export today). A change
 * is one entry of the activity record (`role.capability`: who, site, role, capability, allowed, and what held
 * before); it takes effect at each person's next request on every instance, because the database marks it
 * as a change (migration 0008-role-capability-changes) and each instance reads the overrides again with the sessions.
 * Anyone else gets 403, the local demo 409 (it has no roles), and nothing is read or changed.
 */
import { ALL_SITES } from '../../src/contract/access';
import { ROLE_OVERRIDES_PATH } from '../../src/contract/people-paths';
import { roleCapabilityChangeSchema, type RoleCapabilitiesView } from '../../src/contract/people';
import type { SiteInfo } from '../../src/contract/site-info';
import { sendError } from '../answers';
import type { ActivityStore } from '../activity/activity-store';
import { shortUserAgent } from '../activity/record-site-calls';
import { actorOf } from '../identity';
import { parseBody, sendJson, type Endpoint } from '../own-api';
import type { Accounts } from './accounts';
import { ownerAsking } from './people-endpoints';

export function roleCapabilityEndpoints(deps: { accounts: Accounts; activity: ActivityStore; sites: readonly SiteInfo[] }): Endpoint[] {
  const { accounts, activity, sites } = deps;
  const siteIds = new Set(sites.map((site) => site.id));

  async function view(): Promise<RoleCapabilitiesView> {
    return { sites: sites.map((site) => ({ id: site.id, name: site.name })), overrides: await accounts.roleCapabilities.list() };
  }

  return [
    {
      method: 'GET',
      path: ROLE_OVERRIDES_PATH,
      handle: async ({ request, who }) => {
        if (!ownerAsking(who, request.res)) return;
        sendJson(request.res, 200, await view());
      },
    },
    {
      method: 'PUT',
      path: ROLE_OVERRIDES_PATH,
      handle: async ({ request, who, body }) => {
        const { req, res } = request;
        const owner = ownerAsking(who, res);
        if (!owner) return;
        const change = parseBody(res, roleCapabilityChangeSchema, body, 'This change of what a role may do cannot be made.');
        if (!change) return;
        if (change.siteId !== ALL_SITES && !siteIds.has(change.siteId)) {
          sendError(res, 400, `There is no site “${change.siteId}” on this server.`, [
            { field: 'siteId', message: 'is not a site of this server, nor * (every site)' },
          ]);
          return;
        }
        const store = accounts.roleCapabilities;
        const before = await store.get(change.siteId, change.role, change.capability);
        const t = accounts.now();
        await store.set(change, t, owner.id);
        try {
          await activity.append({
            at: t,
            actor: actorOf(owner),
            siteId: change.siteId === ALL_SITES ? null : change.siteId,
            action: 'role.capability',
            outcome: 'ok',
            address: req.socket.remoteAddress ?? null,
            userAgent: shortUserAgent(req.headers['user-agent']),
            detail: {
              site: change.siteId,
              role: change.role,
              capability: change.capability,
              allowed: change.allowed,
              before: before ?? null,
            },
          });
        } catch (error) {
          // Nothing changes unrecorded: the override goes back to what it was.
          console.error('site-admin: the activity record could not take a change of what a role may do', error);
          await store.set({ ...change, allowed: before ?? null }, t, owner.id);
          sendError(res, 503, 'The activity record could not take this change, so it was not made. Try again in a moment.');
          return;
        }
        sendJson(res, 200, await view());
      },
    },
  ];
}
