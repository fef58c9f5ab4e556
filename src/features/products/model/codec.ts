/**
 * The one codec between the editor's form model and the wire body of "create a product".
 * Encoding never guesses: a price cell or date that cannot be read is left out of the body and reported
 * with its form path, so the editor can mark the cell instead of sending something the user did not mean.
 * Decoding keeps wire values it cannot read as text in the field, for the same reason.
 */
import { MAX_EPOCH_SECONDS } from '@/contract/identifiers';
import {
  CURRENCIES,
  OPTION_FIELD_SLOTS,
  OPTION_INVENTORY_KEY,
  OPTION_PRICE_TIERS,
  PRODUCT_FIELD_SLOTS,
  PRODUCT_INVENTORY_SLOTS,
  PRODUCT_PRICE_TIERS,
  optionFieldKey,
  optionPriceKey,
  productFieldKey,
  productInventoryKey,
  productPriceKey,
  type Currency,
  type WireAttribute,
  type WireAttributeOption,
  type WireProduct,
  type WireReference,
} from '@/contract/site-api';
import { epochToLocalDateTime, localDateTimeToEpoch } from './dates';
import { MAX_MINOR_UNITS, formatMinor, parseMoney } from './money';
import {
  newKey,
  type AttributeForm,
  type OptionForm,
  type PriceGrid,
  type ProductForm,
} from './product-form';

/** A problem at a react-hook-form path into ProductForm, e.g. `prices.usd.0`; "" when no field fits. */
export interface FormProblem {
  path: string;
  message: string;
}

export const UNREADABLE_DATE = 'Not a date and time (YYYY-MM-DD HH:mm:ss)';

export interface EncodedProduct {
  body: WireProduct;
  problems: FormProblem[];
}

/** Trimmed text, or undefined when blank: blank fields are left out of the body (platform-notes). */
function text(value: string | undefined): string | undefined {
  const trimmed = (value ?? '').trim();
  return trimmed === '' ? undefined : trimmed;
}

function references(ids: readonly string[]): WireReference[] | undefined {
  const refs = ids.flatMap((id) => {
    const trimmed = id.trim();
    return trimmed === '' ? [] : [{ id: trimmed }];
  });
  return refs.length > 0 ? refs : undefined;
}

/** Sets the key only when the value is defined, so a blank field is absent rather than `undefined`. */
function put<T extends object, K extends keyof T>(target: T, key: K, value: T[K] | undefined): void {
  if (value !== undefined) target[key] = value;
}

class Encoder {
  readonly problems: FormProblem[] = [];
  constructor(private readonly locale: string) {}

  date(path: string, value: string): string | undefined {
    if (value.trim() === '') return undefined;
    const epoch = localDateTimeToEpoch(value.trim());
    if (epoch === null) {
      this.problems.push({ path, message: UNREADABLE_DATE });
      return undefined;
    }
    return String(epoch);
  }

  /** The readable, non-blank cells as [wire key, minor units]; cell index i is tier i + 1. */
  prices<T extends number, K extends string>(
    path: string,
    grid: PriceGrid,
    tiers: readonly T[],
    keyOf: (currency: Currency, tier: T) => K,
  ): [K, string][] {
    return CURRENCIES.flatMap((currency) =>
      tiers.flatMap((tier, index): [K, string][] => {
        const parsed = parseMoney(grid[currency][index] ?? '', this.locale, currency);
        if (!parsed.ok) this.problems.push({ path: `${path}.${currency}.${index}`, message: parsed.reason });
        return parsed.ok && parsed.minor !== null ? [[keyOf(currency, tier), String(parsed.minor)]] : [];
      }),
    );
  }

  option(path: string, option: OptionForm): WireAttributeOption {
    // Names are always sent, as the product's name is: an unnamed row is then reported by the rules.
    const wire: WireAttributeOption = { name: option.name.trim(), enabled: String(option.enabled) };
    OPTION_FIELD_SLOTS.forEach((slot, index) => put(wire, optionFieldKey(slot), text(option.fields[index])));
    for (const [key, minor] of this.prices(`${path}.prices`, option.prices, OPTION_PRICE_TIERS, optionPriceKey)) {
      wire[key] = minor;
    }
    put(wire, OPTION_INVENTORY_KEY, text(option.inventory));
    return wire;
  }

  attribute(path: string, attribute: AttributeForm): WireAttribute {
    const wire: WireAttribute = { name: attribute.name.trim(), enabled: String(attribute.enabled) };
    if (attribute.options.length > 0) {
      wire.items = attribute.options.map((option, index) => this.option(`${path}.options.${index}`, option));
    }
    return wire;
  }
}

/** ProductForm → wire body, plus the cells and dates that could not be read (left out of the body). */
export function encodeProduct(form: ProductForm, locale = 'en'): EncodedProduct {
  const encoder = new Encoder(locale);
  // `name` is always sent, even blank (platform-notes); every other blank field is left out.
  const body: WireProduct = { name: form.name.trim() };
  put(body, 'slug', text(form.slug));
  body.enabled = String(form.enabled);
  put(body, 'weighting', text(form.weighting));
  put(body, 'release_date', encoder.date('releaseAt', form.releaseAt));
  put(body, 'expiry_date', encoder.date('expiryAt', form.expiryAt));
  put(body, 'category_array', references(form.categories));
  put(body, 'secure_zone_array', references(form.secureZones));
  PRODUCT_FIELD_SLOTS.forEach((slot, index) => put(body, productFieldKey(slot), text(form.fields[index])));
  PRODUCT_INVENTORY_SLOTS.forEach((slot, index) => put(body, productInventoryKey(slot), text(form.inventory[index])));
  for (const [key, minor] of encoder.prices('prices', form.prices, PRODUCT_PRICE_TIERS, productPriceKey)) {
    body[key] = minor;
  }
  if (form.attributes.length > 0) {
    body.attributes = form.attributes.map((attribute, index) => encoder.attribute(`attributes.${index}`, attribute));
  }
  return { body, problems: encoder.problems };
}

/** A wire price as cell text: canonical major units when it is valid minor units, else the text as sent. */
function decodeMinor(value: string | undefined): string {
  if (value === undefined) return '';
  return /^(0|[1-9]\d*)$/.test(value) && Number(value) <= MAX_MINOR_UNITS ? formatMinor(Number(value)) : value;
}

/** A wire date as a local date-time when it is valid epoch seconds, else the text as sent. */
function decodeDate(value: string | undefined): string {
  if (value === undefined) return '';
  return /^(0|[1-9]\d*)$/.test(value) && Number(value) <= MAX_EPOCH_SECONDS ? epochToLocalDateTime(Number(value)) : value;
}

/** Absent means visible (the platform's default); only "false" hides. */
const decodeEnabled = (value: string | undefined) => value !== 'false';

function decodePrices<T extends number>(
  tiers: readonly T[],
  read: (currency: Currency, tier: T) => string | undefined,
): PriceGrid {
  return Object.fromEntries(
    CURRENCIES.map((currency) => [currency, tiers.map((tier) => decodeMinor(read(currency, tier)))]),
  ) as PriceGrid;
}

function decodeOption(wire: WireAttributeOption): OptionForm {
  return {
    key: newKey(),
    name: wire.name ?? '',
    enabled: decodeEnabled(wire.enabled),
    fields: OPTION_FIELD_SLOTS.map((slot) => wire[optionFieldKey(slot)] ?? ''),
    prices: decodePrices(OPTION_PRICE_TIERS, (c, t) => wire[optionPriceKey(c, t)]),
    inventory: wire[OPTION_INVENTORY_KEY] ?? '',
  };
}

function decodeAttribute(wire: WireAttribute): AttributeForm {
  return {
    key: newKey(),
    name: wire.name ?? '',
    enabled: decodeEnabled(wire.enabled),
    options: (wire.items ?? []).map(decodeOption),
  };
}

/** Wire body → ProductForm, for importing a file in the wire format and "start from this product". */
export function decodeProduct(body: WireProduct): ProductForm {
  const slug = body.slug ?? '';
  return {
    name: body.name ?? '',
    slug,
    slugEdited: slug !== '',
    enabled: decodeEnabled(body.enabled),
    weighting: body.weighting ?? '',
    releaseAt: decodeDate(body.release_date),
    expiryAt: decodeDate(body.expiry_date),
    categories: (body.category_array ?? []).map((ref) => ref.id),
    secureZones: (body.secure_zone_array ?? []).map((ref) => ref.id),
    fields: PRODUCT_FIELD_SLOTS.map((slot) => body[productFieldKey(slot)] ?? ''),
    inventory: PRODUCT_INVENTORY_SLOTS.map((slot) => body[productInventoryKey(slot)] ?? ''),
    prices: decodePrices(PRODUCT_PRICE_TIERS, (c, t) => body[productPriceKey(c, t)]),
    attributes: (body.attributes ?? []).map(decodeAttribute),
  };
}
