/**
 * A product of the import opened in the full editor, and brought back: its rows become the editor's form
 * (the same reading as the dry run), and the form the editor checked becomes rows again, in the file's
 * own columns, in place of the old ones. No wire body in between: the cells get the text as the person
 * typed it, which the dry run reads as the editor did.
 */
import { valueAt, type ProductSettings } from '../model/codec';
import type { ProductForm } from '../model/product-form';
import { importColumns, templateHeader, type Mapping } from './columns';
import { readerOf } from './check';
import type { ImportFile, ImportWork, SavedImport } from './import-store';
import { groupRows } from './rows';
import { productFormOf, type ImportSite } from './to-form';

/** The rows of the product whose first row is `key`, or null when the file has no such product now. */
export function productRowsOf(saved: SavedImport, key: number): number[] | null {
  const cell = readerOf(saved.file.rows, saved.work.fixes);
  const found = groupRows(saved.file.rows.length, saved.work.mapping, cell).products.find((p) => p.rows[0] === key);
  return found ? found.rows : null;
}

/** The import's product as the editor's form, exactly as the dry run reads it. */
export function formOfImported(
  saved: SavedImport,
  key: number,
  settings: ProductSettings,
  site: ImportSite | undefined,
): ProductForm | null {
  const rows = productRowsOf(saved, key);
  if (!rows) return null;
  return productFormOf(rows, saved.work.mapping, settings.fields, site, readerOf(saved.file.rows, saved.work.fixes)).form;
}

const textOf = (value: unknown): string =>
  typeof value === 'boolean' ? String(value) : Array.isArray(value) ? value.join(', ') : typeof value === 'string' ? value : '';

/** A form as rows in the file's columns (one per option; the product's columns on the first). */
export function rowsOfForm(form: ProductForm, mapping: Mapping, settings: ProductSettings, width: number): string[][] {
  const byId = new Map(importColumns(settings.fields).map((c) => [c.id, c]));
  const slots: { attribute: number; option: number | null; first: boolean }[] = [];
  form.attributes.forEach((attribute, a) => {
    if (attribute.options.length === 0) slots.push({ attribute: a, option: null, first: true });
    attribute.options.forEach((_, o) => slots.push({ attribute: a, option: o, first: o === 0 }));
  });
  if (slots.length === 0) slots.push({ attribute: -1, option: null, first: false });
  return slots.map((slot, i) =>
    Array.from({ length: width }, (_, index) => {
      const column = byId.get(mapping[index] ?? '');
      if (!column) return '';
      if (column.scope === 'product') return i === 0 ? textOf(valueAt(form, column.def.path)) : '';
      const attribute = form.attributes[slot.attribute];
      if (!attribute) return '';
      if (column.scope === 'attribute') return slot.first ? textOf(valueAt(attribute, column.def.path)) : '';
      const option = slot.option === null ? undefined : attribute.options[slot.option];
      return option ? textOf(valueAt(option, column.def.path)) : '';
    }),
  );
}

/**
 * The columns a form needs that the file does not have: a field filled in the editor whose column the file
 * lacks comes back as a new column (headed as in the template), never dropped. A blank cell already means
 * an empty field, and a yes/no left at yes (the default), so those need none.
 */
function missingColumns(form: ProductForm, mapping: Mapping, settings: ProductSettings): string[] {
  const all = importColumns(settings.fields).map((c) => c.id);
  const absent = all.filter((id) => !mapping.includes(id));
  const probe = rowsOfForm(form, absent, settings, absent.length);
  return absent.filter((id, i) =>
    probe.some(
      (row) => row[i] !== '' && !(row[i] === 'true' && importColumns(settings.fields).find((c) => c.id === id)?.def.kind === 'boolean'),
    ),
  );
}

/**
 * The import with product `key` replaced by `form` (what the editor checked). Later rows move by the
 * difference in rows, with their fixes and statuses; the product itself is unsent again.
 */
export function replaceProduct(saved: SavedImport, key: number, form: ProductForm, settings: ProductSettings): SavedImport | null {
  const rows = productRowsOf(saved, key);
  if (!rows) return null;
  const added = missingColumns(form, saved.work.mapping, settings);
  if (added.length > 0) {
    const byId = new Map(importColumns(settings.fields).map((c) => [c.id, c]));
    const widened: SavedImport = {
      file: {
        ...saved.file,
        headers: [
          ...saved.file.headers,
          ...added.map((id) => {
            const c = byId.get(id);
            return c ? templateHeader(c) : id;
          }),
        ],
        rows: saved.file.rows.map((row) => [...row, ...added.map(() => '')]),
      },
      work: { ...saved.work, mapping: [...saved.work.mapping, ...added] },
    };
    return replaceProduct(widened, key, form, settings);
  }
  const start = rows[0] ?? key;
  const end = start + rows.length;
  const width = saved.file.headers.length;
  const replacement = rowsOfForm(form, saved.work.mapping, settings, width).map((row, i) =>
    // Ignored columns keep what the file had on the rows that remain.
    row.map((text, index) => (saved.work.mapping[index] === null && i < rows.length ? (saved.file.rows[start + i]?.[index] ?? '') : text)),
  );
  const delta = replacement.length - rows.length;
  const file: ImportFile = { ...saved.file, rows: [...saved.file.rows.slice(0, start), ...replacement, ...saved.file.rows.slice(end)] };
  const fixes: ImportWork['fixes'] = {};
  for (const [cellKey, text] of Object.entries(saved.work.fixes)) {
    const [row = 0, column = 0] = cellKey.split(':').map(Number);
    if (row < start) fixes[cellKey] = text;
    else if (row >= end) fixes[`${row + delta}:${column}`] = text;
  }
  const statuses: ImportWork['statuses'] = {};
  for (const [statusKey, status] of Object.entries(saved.work.statuses)) {
    const row = Number(statusKey);
    if (row < start) statuses[statusKey] = status;
    else if (row >= end) statuses[String(row + delta)] = status;
  }
  return { file, work: { ...saved.work, fixes, statuses } };
}
