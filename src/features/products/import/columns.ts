/**
 * The columns of a spreadsheet import, read off the site's fields (the registry as its profile shapes
 * it), and the matching of a file's headers to them.
 *
 * A column's id is its place on the wire: the product's own key (`slug`,
 * `module_field_14/product/price/usd/1`), `attributes[].<key>` for an attribute's and
 * `attributes[].items[].<key>` for an option's, because the three scopes share keys such as `name`.
 * Its label is what the editor calls the field ("USD, Price", "Option name"), with the site's names.
 * The template writes both, "Label [id]", so a person reads the label and a machine the id.
 */
import type { FieldDef, Scope, SiteFields } from '../model/registry';

export interface ImportColumn {
  id: string;
  scope: Scope;
  def: FieldDef;
  label: string;
}

const PREFIX: Record<Scope, string> = { product: '', attribute: 'attributes[].', option: 'attributes[].items[].' };

const labelOf = (def: FieldDef) => (def.kind === 'money' ? `${def.currency.toUpperCase()}, ${def.label}` : def.label);

const cache = new WeakMap<SiteFields, readonly ImportColumn[]>();

/**
 * The platform's id of an attribute or an option, for an import that updates products: not a field of the
 * editor (the registry's), but read into the form's own `id` the same way, so a file that keeps the ids
 * says exactly which attribute or option a row changes. Where it is blank, the import matches by name.
 */
const idDef = (scope: 'attribute' | 'option'): FieldDef => ({
  kind: 'text',
  trim: true,
  scope,
  wire: 'id',
  path: 'id',
  step: 'attributes',
  label: scope === 'attribute' ? 'Attribute id' : 'Option id',
  hint: `the platform’s id of the ${scope} to update, where you keep it; blank: matched by name, or a new ${scope}`,
});
const ID_DEFS = { attribute: idDef('attribute'), option: idDef('option') } as const;

/** The id columns: `attributes[].id`, `attributes[].items[].id`. */
export const ATTRIBUTE_ID_COLUMN = `${PREFIX.attribute}id`;
export const OPTION_ID_COLUMN = `${PREFIX.option}id`;

/**
 * Every column a file of this site may have: the product's fields, then an attribute's, then an option's,
 * each scope's items followed by the id that names an existing one (for updates).
 */
export function importColumns(fields: SiteFields): readonly ImportColumn[] {
  let columns = cache.get(fields);
  if (!columns) {
    const of = (scope: Scope) => {
      const defs = scope === 'product' ? fields[scope] : [...fields[scope], ID_DEFS[scope]];
      return defs.map((def): ImportColumn => ({ id: PREFIX[scope] + def.wire, scope, def, label: labelOf(def) }));
    };
    columns = [...of('product'), ...of('attribute'), ...of('option')];
    cache.set(fields, columns);
  }
  return columns;
}

/** The template's header of a column: "USD, Price [module_field_14/product/price/usd/1]". */
export const templateHeader = (column: ImportColumn): string => `${column.label} [${column.id}]`;

/** Case, accents' composition, punctuation and runs of spaces do not matter in a label: "usd price" = "USD, Price". */
export const normaliseLabel = (text: string): string =>
  text
    .normalize('NFKC')
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim();

// The id itself may hold brackets (`attributes[].name`): the last bracket closes it.
const BRACKETED = /^(.*?)\s*\[(.+)\]\s*$/su;

/**
 * How a header was matched:
 * - `key`: by its wire key (alone, or in brackets after a label);
 * - `label`: by the site's label of exactly one field;
 * - `remembered`: by a mapping chosen by hand earlier on this site (a column or "ignore");
 * - `ambiguous`: the label names several fields (a profile may give two scopes the same name);
 * - `duplicate`: an earlier header already took that field;
 * - `none`: nothing fits.
 */
export type MatchHow = 'key' | 'label' | 'remembered' | 'ambiguous' | 'duplicate' | 'none';

export interface ColumnMatch {
  header: string;
  /** The column id, or null when the header is ignored. */
  column: string | null;
  how: MatchHow;
}

/** Hand-made choices, by normalised header: a column id, or null for "ignore". */
export type RememberedMapping = Readonly<Record<string, string | null>>;

/** Matches each header to at most one column; no column is taken twice (the first header keeps it). */
export function matchColumns(headers: readonly string[], fields: SiteFields, remembered: RememberedMapping = {}): ColumnMatch[] {
  const columns = importColumns(fields);
  const byId = new Map(columns.map((c) => [c.id.toLowerCase(), c]));
  const byLabel = new Map<string, ImportColumn[]>();
  for (const column of columns) {
    const key = normaliseLabel(column.label);
    byLabel.set(key, [...(byLabel.get(key) ?? []), column]);
  }
  const taken = new Set<string>();
  return headers.map((header): ColumnMatch => {
    const take = (column: ImportColumn | undefined, how: MatchHow): ColumnMatch | null => {
      if (!column) return null;
      if (taken.has(column.id)) return { header, column: null, how: 'duplicate' };
      taken.add(column.id);
      return { header, column: column.id, how };
    };
    const normalised = normaliseLabel(header);
    if (Object.hasOwn(remembered, normalised)) {
      const choice = remembered[normalised] ?? null;
      if (choice === null) return { header, column: null, how: 'remembered' };
      const found = take(byId.get(choice.toLowerCase()), 'remembered');
      if (found) return found;
    }
    const trimmed = header.trim();
    const whole = byId.get(trimmed.toLowerCase());
    const bracketed = whole ? null : BRACKETED.exec(trimmed);
    const byKey = take(whole ?? byId.get((bracketed?.[2] ?? '').trim().toLowerCase()), 'key');
    if (byKey) return byKey;
    const label = normaliseLabel(bracketed ? (bracketed[1] ?? '') : trimmed);
    const candidates = byLabel.get(label) ?? [];
    if (candidates.length > 1) return { header, column: null, how: 'ambiguous' };
    return take(candidates[0], 'label') ?? { header, column: null, how: 'none' };
  });
}

/** A column of the file, by its index: the field it feeds, or null when ignored. */
export type Mapping = readonly (string | null)[];

export const mappingOf = (matches: readonly ColumnMatch[]): Mapping => matches.map((m) => m.column);
