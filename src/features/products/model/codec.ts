/**
 * The one codec between the editor's form model and the wire body of "create a product", driven by the
 * field registry: each field is encoded and decoded by its kind.
 * Encoding never guesses: a price cell or date that cannot be read is left out of the body and reported
 * with its form path, so the editor marks the field instead of sending something the user did not mean.
 * Decoding keeps wire values it cannot read as text in the field, for the same reason.
 */
import { MAX_EPOCH_SECONDS } from '@/contract/identifiers';
import type { WireProductUpdate } from '@/contract/products';
import type { WireReference } from '@/contract/site-api';
import { epochToLocalDateTime, parseDateText } from './dates';
import { MAX_MINOR_UNITS } from '@/contract/rules';
import { DEFAULT_PRICE_DECIMALS, formatMinor, parseMoney, type PriceDecimals } from './money';
import { newKey, type AttributeForm, type OptionForm, type ProductForm } from './product-form';
import { BASE_FIELDS, type FieldDef, type SiteFields } from './registry';
import { fieldsForSite, type SiteShape } from './site-fields';

/** A problem at a react-hook-form path into ProductForm, e.g. `prices.usd.0`; "" when no field fits. */
export interface FormProblem {
  path: string;
  message: string;
}

/**
 * How the person's text is read and what is sent: the one locale used from typing to sending (the
 * browser's), the site's price precision, and the site's fields (its labels, currencies and encodings).
 * Required everywhere, so nothing falls back to another locale or another site's fields unnoticed.
 */
export interface ProductSettings {
  locale: string;
  decimals: PriceDecimals;
  fields: SiteFields;
}

/** A site without a profile: every field, 2 decimals. */
export const settingsForLocale = (locale: string): ProductSettings => ({ locale, decimals: DEFAULT_PRICE_DECIMALS, fields: BASE_FIELDS });

/** A site of the profile. */
export const settingsForSite = (locale: string, site: (SiteShape & { decimals: PriceDecimals }) | undefined): ProductSettings =>
  site ? { locale, decimals: site.decimals, fields: fieldsForSite(site) } : settingsForLocale(locale);

export interface EncodedProduct {
  /** The body: a create's when no attribute or option has an id (a new form's never do), else an update's. */
  body: WireProductUpdate;
  problems: FormProblem[];
}

type Wire = Record<string, unknown>;

/** The value at a dotted path (`prices.usd.0`) of a form object. */
export function valueAt(values: object, path: string): unknown {
  let node: unknown = values;
  for (const part of path.split('.')) {
    if (node === null || typeof node !== 'object') return undefined;
    node = (node as Record<string, unknown>)[part];
  }
  return node;
}

function setAt(target: Record<string, unknown>, path: string, value: unknown): void {
  const parts = path.split('.');
  let node: Record<string, unknown> = target;
  parts.slice(0, -1).forEach((part, i) => {
    node[part] ??= /^\d+$/.test(parts[i + 1] ?? '') ? [] : {};
    node = node[part] as Record<string, unknown>;
  });
  node[parts.at(-1) ?? ''] = value;
}

const isBlank = (text: string) => text.trim() === '';

class Encoder {
  readonly problems: FormProblem[] = [];
  constructor(private readonly settings: ProductSettings) {}

  /** The wire value of one field, or undefined to leave it out of the body. */
  field(def: FieldDef, value: unknown, at: string): string | WireReference[] | undefined {
    switch (def.kind) {
      case 'boolean':
        // Always sent: the platform's own forms read a missing `enabled` as hidden.
        return String(value === true);
      case 'references': {
        const ids = (value as string[]).flatMap((id) => (isBlank(id) ? [] : [id.trim()]));
        if (ids.length === 0) return undefined;
        return def.encoding === 'ids' ? ids : ids.map((id) => ({ id }));
      }
      case 'text':
      case 'multiline':
      case 'integer':
      case 'choice': {
        const text = String(value ?? '');
        const trimmed = def.kind === 'integer' || (def.kind === 'text' && def.trim);
        if (def.kind === 'text' && def.alwaysSent) return text.trim();
        if (isBlank(text)) return undefined;
        // Only single-line identifiers and numbers are trimmed; other text is sent as typed.
        return trimmed ? text.trim() : text;
      }
      case 'datetime': {
        const parsed = parseDateText(String(value ?? ''), this.settings.locale);
        if (!parsed.ok) this.problems.push({ path: at, message: parsed.reason });
        return parsed.ok && parsed.epoch !== null ? String(parsed.epoch) : undefined;
      }
      case 'money': {
        const parsed = parseMoney(String(value ?? ''), this.settings.locale, def.currency, this.settings.decimals);
        if (!parsed.ok) this.problems.push({ path: at, message: parsed.reason });
        return parsed.ok && parsed.minor !== null ? String(parsed.minor) : undefined;
      }
    }
  }

  object(defs: readonly FieldDef[], values: object, prefix: string): Wire {
    const wire: Wire = {};
    for (const def of defs) {
      const encoded = this.field(def, valueAt(values, def.path), prefix + def.path);
      if (encoded !== undefined) wire[def.wire] = encoded;
    }
    return wire;
  }
}

/** An item's wire object with its platform id first, when it has one ('' is a new item: no id). */
const withId = (id: string | undefined, wire: Wire): Wire => (id ? { id, ...wire } : wire);

/** ProductForm → wire body, plus the cells and dates that could not be read (left out of the body). */
export function encodeProduct(form: ProductForm, settings: ProductSettings): EncodedProduct {
  const encoder = new Encoder(settings);
  const { fields } = settings;
  const body = encoder.object(fields.product, form, '');
  if (form.attributes.length > 0) {
    body.attributes = form.attributes.map((attribute, a) => {
      const wire = withId(attribute.id, encoder.object(fields.attribute, attribute, `attributes.${a}.`));
      if (attribute.options.length > 0) {
        wire.items = attribute.options.map((option, o) =>
          withId(option.id, encoder.object(fields.option, option, `attributes.${a}.options.${o}.`)),
        );
      }
      return wire;
    });
  }
  // The registry's wire keys are the contract's (registry.test.ts holds them to wireProductSchema).
  return { body: body, problems: encoder.problems };
}

const WHOLE = /^(0|[1-9]\d*)$/;

/** The form value of one wire value; what cannot be read is kept as the text that was sent. */
function decodeField(def: FieldDef, value: unknown, decimals: PriceDecimals): unknown {
  switch (def.kind) {
    case 'boolean':
      // Absent means visible (the platform's default); only "false" hides.
      return value !== 'false';
    case 'references':
      return Array.isArray(value) ? (value as WireReference[]).map((ref) => (typeof ref === 'string' ? ref : ref.id)) : [];
    case 'datetime':
      if (typeof value !== 'string') return '';
      return WHOLE.test(value) && Number(value) <= MAX_EPOCH_SECONDS ? epochToLocalDateTime(Number(value)) : value;
    case 'money':
      if (typeof value !== 'string') return '';
      return WHOLE.test(value) && Number(value) <= MAX_MINOR_UNITS ? formatMinor(Number(value), decimals) : value;
    default:
      return typeof value === 'string' ? value : '';
  }
}

function decodeObject<T>(defs: readonly FieldDef[], wire: Wire, decimals: PriceDecimals, extra: object): T {
  const values: Record<string, unknown> = {};
  for (const def of defs) setAt(values, def.path, decodeField(def, wire[def.wire], decimals));
  // After the fields, in the order emptyProduct() has them.
  return Object.assign(values, extra) as T;
}

const idOf = (wire: { id?: unknown }) => (typeof wire.id === 'string' ? wire.id : '');

/**
 * Wire body → ProductForm, for importing a file in the wire format, "start from this product" and
 * opening a product read from the platform (a ProductRecord is such a body): the ids of its attributes
 * and options are kept (none: ''). Every field of the registry is read (a field the site hides keeps its
 * value but is not shown or sent).
 */
export function decodeProduct(body: WireProductUpdate, decimals: PriceDecimals = DEFAULT_PRICE_DECIMALS): ProductForm {
  const attributes = (body.attributes ?? []).map((attribute) =>
    decodeObject<AttributeForm>(BASE_FIELDS.attribute, attribute, decimals, {
      key: newKey(),
      id: idOf(attribute),
      options: (attribute.items ?? []).map((option) =>
        decodeObject<OptionForm>(BASE_FIELDS.option, option, decimals, { key: newKey(), id: idOf(option) }),
      ),
    }),
  );
  const slug = body.slug ?? '';
  return decodeObject<ProductForm>(BASE_FIELDS.product, body, decimals, { slugEdited: slug !== '', attributes });
}
