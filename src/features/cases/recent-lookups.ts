/**
 * The last lookups of this browser, kept by the app's one storage store (src/lib/storage.ts) under the
 * key and in the format they always had: whatever is stored (other versions, hand edits) is read
 * entry by entry, and a bad entry is dropped rather than breaking the list.
 */
import { IDENTIFIER_PATTERN } from '@/contract/identifiers';
import { storedValue } from '@/lib/storage';

export interface RecentLookup {
  form: string;
  id: string;
  /** The form's name when the case was seen, e.g. "Contact us". */
  title: string | null;
  /** When it was looked up, epoch milliseconds. */
  at: number;
}

export const RECENT_LOOKUPS_KEY = 'site-admin:cases:recent';
export const MAX_RECENT_LOOKUPS = 10;
const MAX_TITLE = 200;

function toLookup(item: unknown): RecentLookup | null {
  if (item === null || typeof item !== 'object') return null;
  const { form, id, title, at } = item as Record<string, unknown>;
  if (typeof form !== 'string' || !IDENTIFIER_PATTERN.test(form)) return null;
  if (typeof id !== 'string' || !IDENTIFIER_PATTERN.test(id)) return null;
  return {
    form,
    id,
    title: typeof title === 'string' && title.trim() !== '' ? title.trim().slice(0, MAX_TITLE) : null,
    at: typeof at === 'number' && Number.isFinite(at) ? at : 0,
  };
}

/** Reads a stored list; anything but a list counts as no list, and bad or repeated entries are dropped. */
export function parseRecentLookups(json: unknown): RecentLookup[] {
  if (!Array.isArray(json)) return [];
  const seen = new Set<string>();
  const out: RecentLookup[] = [];
  for (const item of json) {
    const lookup = toLookup(item);
    if (!lookup || seen.has(`${lookup.form}/${lookup.id}`)) continue;
    seen.add(`${lookup.form}/${lookup.id}`);
    out.push(lookup);
    if (out.length === MAX_RECENT_LOOKUPS) break;
  }
  return out;
}

const NONE: RecentLookup[] = [];

export const recentLookupsStore = storedValue<RecentLookup[]>({
  key: RECENT_LOOKUPS_KEY,
  parse: parseRecentLookups,
  fallback: NONE,
  isEmpty: (list) => list.length === 0,
});

/** The list with this lookup first, once, and at most ten entries. */
export function addRecentLookup(list: readonly RecentLookup[], lookup: RecentLookup): RecentLookup[] {
  const rest = list.filter((item) => item.form !== lookup.form || item.id !== lookup.id);
  return [lookup, ...rest].slice(0, MAX_RECENT_LOOKUPS);
}
