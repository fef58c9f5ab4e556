/**
 * What the Settings page's check of a list envelope makes of a site: which of a profile's sites can be
 * tried on this server and how, and what one page of a form's list says about the envelope the profile
 * names (`sites[].lists.envelope`). The page asks for the first case only (`per_page=1`), through the
 * same proxy and permission as every list, so the check costs the platform one small request a site.
 */
import {
  caseListSearch,
  DEFAULT_LIST_ENVELOPE,
  envelopesMatching,
  formCasesPath,
  LIST_ENVELOPE_NAMES,
  type ListEnvelope,
} from '@/contract/case-list';
import type { SiteInfo } from '@/contract/site-info';
import { capabilitiesOf, siteApiBasePath } from '@/contract/site-info';
import type { SiteConfig } from '@/contract/site-profile';
import type { Answer } from '@/lib/api-client';

/** An answer as it arrived: its status, the platform's status and the text. */
export type RawAnswer = Pick<Answer, 'status' | 'platformStatus' | 'retryAfter' | 'text'>;
import { classifyApiError } from '@/lib/api-error';
import { describeFailure } from '@/lib/api-error-class';
import { ListEnvelopeError, readCaseListAnswer } from '@/lib/case-list-reader';

/** A profile's site, and whether and how its list can be tried from this page. */
export type EnvelopePlan = {
  id: string;
  name: string;
  /** The envelope the profile names for it, or the default. */
  named: ListEnvelope;
  /** Whether the profile leaves `lists.envelope` out (the default applies). */
  byDefault: boolean;
} & (
  | { kind: 'no-forms' }
  | { kind: 'not-on-this-server' }
  | { kind: 'no-lookup' }
  | {
      kind: 'try';
      form: string;
      /** Where this server's site of that id sends its calls, in words. */
      where: string;
      /** How the profile's site differs from this server's, in words; null when they are the same. */
      differs: string | null;
      /** The same-origin address of the one-case page. */
      path: string;
    }
);

const whereOf = (site: SiteInfo) =>
  site.mode === 'sandbox' ? `the built-in sandbox, site ${site.siteId}` : `live at ${site.host ?? ''}, site ${site.siteId}`;

function differenceOf(profile: SiteConfig, served: SiteInfo): string | null {
  const where = profile.platform;
  const profileWhere =
    'sandbox' in where ? `the built-in sandbox, site ${where.siteId}` : `live at ${new URL(where.baseUrl).host}, site ${where.siteId}`;
  return profileWhere === whereOf(served) ? null : `the profile puts it ${profileWhere.replace(/^the built-in/, 'on the built-in')}`;
}

/**
 * Each site of `profile`: tried on this server's site of the same id (the first form the profile names),
 * or why not: it names no forms, this server has no such site (or the person may not use it), or the
 * person may not look up cases there (a list needs `lookup`, as the server's permission rule says).
 */
export function planEnvelopeChecks(profile: readonly SiteConfig[], served: readonly SiteInfo[]): EnvelopePlan[] {
  return profile.map((site): EnvelopePlan => {
    const base = { id: site.id, name: site.name, named: site.lists?.envelope ?? DEFAULT_LIST_ENVELOPE, byDefault: !site.lists?.envelope };
    const form = Object.keys(site.forms ?? {})[0];
    if (form === undefined) return { ...base, kind: 'no-forms' };
    const here = served.find((s) => s.id === site.id);
    if (!here) return { ...base, kind: 'not-on-this-server' };
    if (!capabilitiesOf(here).includes('lookup')) return { ...base, kind: 'no-lookup' };
    return {
      ...base,
      kind: 'try',
      form,
      where: whereOf(here),
      differs: differenceOf(site, here),
      path: siteApiBasePath(site.id) + formCasesPath(form) + caseListSearch({ per_page: 1 }),
    };
  });
}

/** What one page of the list said about the envelope. */
export type EnvelopeOutcome =
  /** The answer is the envelope the profile names (`found` lists every envelope it fits). */
  | { kind: 'fits'; found: ListEnvelope[] }
  /** It is not, or not the page asked for: `found` is what it does fit (maybe none), `raw` the answer as it came. */
  | { kind: 'other'; found: ListEnvelope[]; problem: string; raw: string }
  /** The platform's 404 of an empty list. */
  | { kind: 'no-cases' }
  /** No list came: why, in words. */
  | { kind: 'failed'; message: string };

/** Reads the answer to the one-case page as the inbox reads a page, through the envelope the profile names. */
export function readEnvelopeOutcome(answer: RawAnswer, named: ListEnvelope): EnvelopeOutcome {
  try {
    const page = readCaseListAnswer(answer, named, { page: 1, perPage: 1 });
    if (page.noCases) return { kind: 'no-cases' };
    return { kind: 'fits', found: envelopesMatching(JSON.parse(answer.text)) };
  } catch (error) {
    if (error instanceof ListEnvelopeError) return { kind: 'other', found: error.found, problem: error.problem, raw: error.raw };
    return failedOutcome(error);
  }
}

/** No list came (no answer, none in time, an error answer): the one translator's words for it. */
export const failedOutcome = (error: unknown): EnvelopeOutcome => ({ kind: 'failed', message: describeFailure(classifyApiError(error)) });

/** The envelopes by name, quoted and joined: `"results" or "data-meta"`. */
export const envelopeNames = (names: readonly ListEnvelope[]) => names.map((name) => `“${name}”`).join(' or ');

/** Every envelope site-admin reads, for the words of an answer that fits none. */
export const KNOWN_ENVELOPES = envelopeNames(LIST_ENVELOPE_NAMES);
