/**
 * Which fields the inbox shows after "Received": the form's `inboxColumns` from the site profile, or by
 * default the name and e-mail where cases have them, then the form's first text fields.
 */
import type { FormCase } from '@/contract/site-api';
import type { SiteInfo } from '@/contract/site-info';
import { isJsonObject } from '@/contract/site-api-basics';
import { isExactNumber } from '@/lib/exact-number';
import { humaniseKey } from './case-fields';

export type FormProfile = NonNullable<SiteInfo['forms']>[string];

export interface InboxColumn {
  key: string;
  label: string;
}

/** Columns by default besides "Received": what fits a row on a laptop. */
const DEFAULT_COLUMNS = 3;
/** A value at most this long is a short text, worth a column. */
const SHORT_TEXT = 200;

/** What `properties` holds, or an empty object. */
export const propertiesOf = (record: FormCase): Record<string, unknown> => (isJsonObject(record.properties) ? record.properties : {});

const isText = (value: unknown): boolean => typeof value === 'string' && value.trim() !== '' && value.length <= SHORT_TEXT;

/** A field's label: the profile's, else the key made readable. */
export const columnLabel = (key: string, profile: FormProfile | undefined): string => profile?.fields?.[key] ?? humaniseKey(key);

export function inboxColumns(profile: FormProfile | undefined, sample: readonly FormCase[]): InboxColumn[] {
  const column = (key: string): InboxColumn => ({ key, label: columnLabel(key, profile) });
  if (profile?.inboxColumns) return profile.inboxColumns.map(column);
  const rows = sample.map(propertiesOf);
  const textIn = (key: string) => rows.some((row) => isText(row[key]));
  const keys: string[] = ['name', 'email'].filter(textIn);
  // The form's fields in the profile's order, then the others in the order the first case has them.
  const candidates = [...Object.keys(profile?.fields ?? {}), ...rows.flatMap((row) => Object.keys(row))];
  for (const key of candidates) {
    if (keys.length >= DEFAULT_COLUMNS) break;
    if (!keys.includes(key) && textIn(key) && !/^(user|order)_id$/.test(key)) keys.push(key);
  }
  return keys.map(column);
}

/** A cell's text: short text and numbers as they are, lists joined, anything else left for the case view. */
export function cellText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  if (isExactNumber(value)) return value.toString();
  if (Array.isArray(value)) return value.every((item) => typeof item === 'string') ? value.join(', ') : `${value.length} items`;
  return '';
}

/** The case's identifier as text (the platform writes it as a string; the exact parser may hand a number). */
export function caseIdOf(record: FormCase): string | null {
  const id = record.id;
  if (typeof id === 'string' && id !== '') return id;
  if (typeof id === 'number' || isExactNumber(id)) return String(id);
  return null;
}
