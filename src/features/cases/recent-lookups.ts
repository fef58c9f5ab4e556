/**
 * The last lookups of this browser, in localStorage. Pure functions over a storage handle: whatever is
 * stored (other versions, hand edits, a full or disabled storage) never breaks the page.
 */
import { IDENTIFIER_PATTERN } from '@/contract/identifiers';

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

type Reader = Pick<Storage, 'getItem'>;
type Writer = Pick<Storage, 'setItem' | 'removeItem'>;

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

/** Reads a stored list; anything unreadable counts as no list, and bad entries are dropped. */
export function parseRecentLookups(raw: string | null): RecentLookup[] {
  if (raw === null) return [];
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch {
    return [];
  }
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

export function readRawRecentLookups(storage: Reader | null): string | null {
  try {
    return storage?.getItem(RECENT_LOOKUPS_KEY) ?? null;
  } catch {
    return null;
  }
}

export function readRecentLookups(storage: Reader | null): RecentLookup[] {
  return parseRecentLookups(readRawRecentLookups(storage));
}

/** The list with this lookup first, once, and at most ten entries. */
export function addRecentLookup(list: readonly RecentLookup[], lookup: RecentLookup): RecentLookup[] {
  const rest = list.filter((item) => item.form !== lookup.form || item.id !== lookup.id);
  return [lookup, ...rest].slice(0, MAX_RECENT_LOOKUPS);
}

/** Stores the list; false when the storage refused (full, disabled, private mode). */
export function writeRecentLookups(storage: Writer | null, list: readonly RecentLookup[]): boolean {
  try {
    if (!storage) return false;
    if (list.length === 0) storage.removeItem(RECENT_LOOKUPS_KEY);
    else storage.setItem(RECENT_LOOKUPS_KEY, JSON.stringify(list));
    return true;
  } catch {
    return false;
  }
}
