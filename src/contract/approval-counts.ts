/**
 * What the navigation reads about approvals, without zod (decision 0003: the shell is on the first page,
 * and its Approvals entry loads in a chunk of its own that should not bring zod either): the counts beside
 * the entry (`GET /api/changes/counts`) and, from the sites' rules (`GET /api/approval-rules`), whether the
 * entry is of use to the person at all. approvals.ts takes these paths from here.
 */
import type { AnswerReader } from './answer-reader';

/** GET: the navigation's numbers (ChangeCounts). */
export const CHANGE_COUNTS_PATH = '/api/changes/counts';
/** GET: the rule of every site the person may use (SiteRule[]). */
export const APPROVAL_RULES_PATH = '/api/approval-rules';

/** The navigation's numbers: open changes the person may approve now, and their own that came back to them. */
export interface ChangeCounts {
  toApprove: number;
  returned: number;
}

const isCount = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 0;

/** The counts in an answer, or null when it is not that shape (other keys are left out). */
export function readChangeCounts(value: unknown): ChangeCounts | null {
  if (typeof value !== 'object' || value === null) return null;
  const { toApprove, returned } = value as Partial<ChangeCounts>;
  return isCount(toApprove) && isCount(returned) ? { toApprove, returned } : null;
}

/** Of a site's rule, what the navigation needs: which site, whether it covers any write, whether the person may change it. */
export interface RuleGlance {
  site: string;
  on: boolean;
  mayChange: boolean;
}

/** The glance at each rule of an answer of APPROVAL_RULES_PATH, or null when it is not a list of rules. */
export function readRuleGlances(value: unknown): RuleGlance[] | null {
  if (!Array.isArray(value)) return null;
  const glances: RuleGlance[] = [];
  for (const item of value as unknown[]) {
    if (typeof item !== 'object' || item === null) return null;
    const { site, rule, mayChange } = item as { site?: unknown; rule?: { writes?: unknown }; mayChange?: unknown };
    if (typeof site !== 'string' || typeof mayChange !== 'boolean' || !Array.isArray(rule?.writes)) return null;
    glances.push({ site, on: rule.writes.length > 0, mayChange });
  }
  return glances;
}

/**
 * The readers the fetch layer takes. Not `readerOf` (answer-reader.ts): the build keeps that module in the
 * sign-in page's chunk, which the navigation would then load on every first page (5 KB).
 */
function readerFor<T>(read: (value: unknown) => T | null): AnswerReader<T> {
  return {
    safeParse: (value) => {
      const data = read(value);
      return data === null ? { success: false } : { success: true, data };
    },
  };
}
export const changeCountsReader = readerFor(readChangeCounts);
export const ruleGlancesReader = readerFor(readRuleGlances);
