/**
 * The team's created products, from the activity record rather than one browser's storage: every product
 * created on a site (the create's outcome `created`), with who and when, for anyone who may use that site;
 * the slugs created there (the import's duplicate check); one of them with what was sent and answered.
 */
import { mayUse } from '../../src/contract/access';
import { CREATED_PRODUCTS_PATHS, type CreatedByTeam, type TeamSlug, type TeamSlugs } from '../../src/contract/activity';
import { isJsonObject } from '../../src/contract/site-api-basics';
import { sendError } from '../answers';
import { actorNameOf } from '../identity';
import { sendJson, type Endpoint, type EndpointCall } from '../own-api';
import type { ActivityRow, ActivityStore } from './activity-store';

const PAGE = 100;

function detailOf(row: ActivityRow): Record<string, unknown> {
  try {
    const value = JSON.parse(row.detail ?? 'null') as unknown;
    return typeof value === 'object' && value !== null ? (value as Record<string, unknown>) : {};
  } catch {
    return {};
  }
}

/** Who an entry is from, as the team's lists name them. */
const byOf = (row: Pick<ActivityRow, 'actor_kind' | 'person_name'>) => actorNameOf(row.actor_kind, row.person_name);

/** The platform's id of a product created: the top-level `id` of its answer, when that is text of at most 64 characters. */
export function platformIdOf(answer: unknown): string | null {
  if (typeof answer !== 'string') return null;
  let product: unknown;
  try {
    product = JSON.parse(answer);
  } catch {
    return null;
  }
  const id = isJsonObject(product) ? product.id : undefined;
  return typeof id === 'string' && id.length > 0 && id.length <= 64 ? id : null;
}

function productOf(row: ActivityRow): CreatedByTeam {
  const platformId = platformIdOf(detailOf(row).answer);
  return {
    seq: Number(row.seq),
    createSeq: row.refers_to === null ? null : Number(row.refers_to),
    at: Number(row.at),
    by: byOf(row),
    name: row.target_name,
    slug: row.target_slug,
    platformId,
  };
}

/** The site of `?site=`, when the person may use it; answers 400 or 403 itself and returns undefined otherwise. */
function siteOf({ request, who }: EndpointCall, siteIds: ReadonlySet<string>): string | undefined {
  const site = new URL(request.url, 'http://x').searchParams.get('site') ?? '';
  if (!siteIds.has(site)) {
    sendError(request.res, 400, 'Say which site: ?site= one of this server’s sites.', [{ field: 'site', message: 'is not a site here' }]);
    return undefined;
  }
  if (!mayUse(who, site)) {
    sendError(request.res, 403, `You have no role on this site, so you cannot see what was created there.`);
    return undefined;
  }
  return site;
}

export function createdProductsEndpoints(activity: ActivityStore, siteIds: ReadonlySet<string>): Endpoint[] {
  return [
    {
      method: 'GET',
      path: CREATED_PRODUCTS_PATHS.slugs,
      handle: async (call) => {
        const site = siteOf(call, siteIds);
        if (!site) return;
        // Each slug's last creation (who and when), for the editor's warning: one row per slug.
        const rows = await activity.createdSlugsOn(site);
        const created: TeamSlug[] = rows.flatMap((row) =>
          row.target_slug ? [{ slug: row.target_slug, by: byOf(row), at: Number(row.at) }] : [],
        );
        const answer: TeamSlugs = { slugs: created.map((one) => one.slug), created };
        sendJson(call.request.res, 200, answer);
      },
    },
    {
      method: 'GET',
      path: CREATED_PRODUCTS_PATHS.list,
      handle: async (call) => {
        const site = siteOf(call, siteIds);
        if (!site) return;
        const query = new URL(call.request.url, 'http://x').searchParams;
        const before = Number(query.get('before'));
        const rows = await activity.createdProductsOn(site, {
          before: Number.isSafeInteger(before) && before > 0 ? before : undefined,
          limit: PAGE,
        });
        const products = rows.map(productOf);
        sendJson(call.request.res, 200, { products, next: rows.length === PAGE ? (products.at(-1)?.seq ?? null) : null });
      },
    },
    {
      method: 'GET',
      path: CREATED_PRODUCTS_PATHS.one,
      handle: async ({ request, who, params }) => {
        const seq = Number(params.seq);
        const row = Number.isSafeInteger(seq) ? await activity.createdProduct(seq) : undefined;
        if (!row || row.site_id === null || !mayUse(who, row.site_id)) {
          sendError(request.res, 404, `No product created as entry ${params.seq ?? ''} that you may see.`);
          return;
        }
        const sent = row.refers_to === null ? undefined : await activity.get(Number(row.refers_to));
        const body = sent ? detailOf(sent).body : undefined;
        const answer = detailOf(row).answer;
        sendJson(request.res, 200, {
          ...productOf(row),
          body: typeof body === 'string' ? body : null,
          answer: typeof answer === 'string' ? answer : null,
        });
      },
    },
  ];
}
