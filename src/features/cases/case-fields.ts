/**
 * Turns a case record into the rows of the field table: a humanised label beside each raw key, the
 * submitted fields of `properties` first, then the rest of the record. Any JSON object works: without a
 * `properties` object every top-level key is a row. Nested objects stay whole: the viewer expands them.
 */
import type { FormCase } from '@/contract/site-api';
import { stringifyExactJson } from '@/lib/exact-json';
import { isJsonObject } from '@/contract/site-api-basics';
import { classifyValue, keyWords } from './classify-value';

export interface FieldRow {
  /** Unique: `properties.email`, `id`. */
  path: string;
  key: string;
  label: string;
  value: unknown;
  /** Lower-case text the filter looks in: key, label, path and value. */
  searchText: string;
}

export interface FieldSection {
  id: 'properties' | 'record' | 'fields';
  title: string;
  rows: FieldRow[];
}

const ACRONYMS: Readonly<Record<string, string>> = {
  id: 'ID',
  ids: 'IDs',
  url: 'URL',
  urls: 'URLs',
  uri: 'URI',
  api: 'API',
  ip: 'IP',
  sku: 'SKU',
  utm: 'UTM',
  json: 'JSON',
  html: 'HTML',
  http: 'HTTP',
  https: 'HTTPS',
  gst: 'GST',
  vat: 'VAT',
  abn: 'ABN',
  dob: 'Date of birth',
  faq: 'FAQ',
  pdf: 'PDF',
  sms: 'SMS',
  uuid: 'UUID',
};

/**
 * `form_field_3_2` → "Form field 2" (the form is already known), `order_id` → "Order ID",
 * `createdAt` → "Created at", `module_field_14/product_1` → "Module field 14 product 1".
 */
export function humaniseKey(key: string): string {
  const formField = /^form_field_\d+_(\d+)$/i.exec(key);
  if (formField) return `Form field ${formField[1]}`;
  if (/^\d+$/.test(key)) return `Item ${Number(key) + 1}`;
  const words = keyWords(key);
  if (words.length === 0) return key.trim() === '' ? '(empty key)' : key;
  const text = words.map((word) => ACRONYMS[word] ?? word).join(' ');
  return text.charAt(0).toUpperCase() + text.slice(1);
}

function valueText(value: unknown, key: string): string {
  const kind = classifyValue(value, key);
  const extra = kind.kind === 'date' ? ` ${kind.date.toISOString()}` : kind.kind === 'empty' ? ` ${kind.description}` : '';
  const text = typeof value === 'string' ? value : stringifyExactJson(value, 0) || String(value);
  return text + extra;
}

/** A site profile's names for a form's keys (`form_field_3_1` → "Phone"). */
export type FieldLabels = Readonly<Record<string, string>>;

export function fieldRow(key: string, value: unknown, prefix = '', labels: FieldLabels = {}): FieldRow {
  const label = Object.hasOwn(labels, key) ? (labels[key] as string) : humaniseKey(key);
  const path = prefix + key;
  return { path, key, label, value, searchText: `${key}\n${label}\n${path}\n${valueText(value, key)}`.toLowerCase() };
}

/** The field table's sections; `labels` (from the site profile) name keys in place of the humanised key. */
export function caseSections(record: FormCase, labels: FieldLabels = {}): FieldSection[] {
  const properties = record.properties;
  if (!isJsonObject(properties) || Object.keys(properties).length === 0) {
    return [{ id: 'fields', title: 'Fields', rows: Object.entries(record).map(([key, value]) => fieldRow(key, value, '', labels)) }];
  }
  const sections: FieldSection[] = [
    {
      id: 'properties',
      title: 'Submitted fields',
      rows: Object.entries(properties).map(([key, value]) => fieldRow(key, value, 'properties.', labels)),
    },
  ];
  const rest = Object.entries(record).filter(([key]) => key !== 'properties');
  if (rest.length > 0) sections.push({ id: 'record', title: 'Record', rows: rest.map(([key, value]) => fieldRow(key, value, '', labels)) });
  return sections;
}

export function countRows(sections: readonly FieldSection[]): number {
  return sections.reduce((sum, section) => sum + section.rows.length, 0);
}

/** Rows whose key, label or value holds every word typed, in any order and case. */
export function filterSections(sections: readonly FieldSection[], query: string): FieldSection[] {
  const terms = query.toLowerCase().split(/\s+/).filter(Boolean);
  if (terms.length === 0) return [...sections];
  return sections
    .map((section) => ({ ...section, rows: section.rows.filter((row) => terms.every((term) => row.searchText.includes(term))) }))
    .filter((section) => section.rows.length > 0);
}
