/**
 * Realistic form cases for the sandbox, in the shape platform-notes describes: id, name (the form's
 * schema name), form_name, created_at (epoch seconds) and properties with name, email, user_id, one
 * form_field_<form>_<n> per field (checkbox answers as arrays, dates as integers, files as URLs or paths)
 * and order_id where the form took an order. Deterministic, so a demo always shows the same cases.
 *
 * Two sets: the `full` one (36 cases of forms 3, 7 and 12) for the first site the sandbox serves, and a
 * `second`, smaller one (8 cases of form 12 only, other case ids) for every other site, so that sites
 * visibly hold different data.
 */
import {
  OPTION_INVENTORY_KEY,
  optionPriceKey,
  productFieldKey,
  productInventoryKey,
  productPriceKey,
  type Currency,
  type FormCase,
  type WireAttributeOption,
  type WireProduct,
} from '../../src/contract/site-api';

export interface SeedCase {
  form: string;
  id: string;
  record: FormCase;
}

/** A small deterministic generator (mulberry32), so every fresh sandbox holds the same cases. */
function random(seed: number) {
  let a = seed;
  return () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const PEOPLE = [
  ['Amelia', 'Nguyen'],
  ['Oliver', 'Smith'],
  ['Charlotte', 'Brown'],
  ['Jack', 'Wilson'],
  ['Isla', 'Taylor'],
  ['Noah', 'Martin'],
  ['Mia', 'Anderson'],
  ['William', 'Thompson'],
  ['Grace', "O'Connor"],
  ['Lucas', 'García'],
  ['Zoë', 'Müller'],
  ['Hiroshi', 'Tanaka'],
  ['Aroha', 'Ngata'],
  ['Priya', 'Sharma'],
  ['Liam', 'Murphy'],
] as const;

const MESSAGES = [
  'Hi there,\n\nI ordered the linen throw last week and it still shows as processing. Could you check on it?\n\nThanks,\n',
  'Do you ship to New Zealand? I could not find shipping rates on the site.',
  'Hello,\nThe discount code SPRING20 is not accepted at checkout.\nIt says "code expired" but the email said it runs until Friday.\n\nRegards',
  'Can I change the colour of my order before it ships? Order placed this morning.',
  'Your contact page says "open 9–5" but nobody answered the phone at 10am. <b>Please</b> call me back.',
  'Wholesale enquiry: we run three cafés in Wellington and would like a price list for 50+ units.',
  'Quick question — is the ceramic range dishwasher safe?',
  'I would like to unsubscribe from the newsletter but the link in the email is broken.\n\nThe link: https://example.com/unsubscribe?id=\n\nCheers',
];

const TOPICS = ['Orders', 'Shipping', 'Returns', 'Wholesale', 'Website problem', 'Other'];
const REASONS = ['Arrived damaged', 'Wrong size', 'Changed my mind', 'Not as described', 'Late delivery'];
const SESSIONS = ['Opening keynote', 'Hands-on workshop', 'Panel: retail in 2027', 'Networking drinks', 'Studio tour'];
const DIETS = ['None', 'Vegetarian', 'Vegan', 'Gluten free', 'Halal', 'Nut allergy'];

export type SeedSet = 'full' | 'second';

export function seedCases(set: SeedSet = 'full'): SeedCase[] {
  const next = random(set === 'full' ? 20261122 : 20261123);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const some = <T>(items: readonly T[]): T[] => items.filter(() => next() < 0.4);
  const start = 1761955200; // 2025-11-01T00:00:00Z
  const cases: SeedCase[] = [];
  let caseId = set === 'full' ? 48210 : 61000;

  const person = () => {
    const [first, last] = pick(PEOPLE);
    const emailName = `${first}.${last}`
      .normalize('NFD')
      .replace(/[^A-Za-z.]/g, '')
      .toLowerCase();
    return { name: `${first} ${last}`, email: `${emailName}@${pick(['example.com', 'example.org', 'mail.example.net'])}` };
  };
  const when = () => start + Math.floor(next() * 365 * 86400);
  const member = () => (next() < 0.5 ? '0' : String(100000 + Math.floor(next() * 90000)));

  const counts = set === 'full' ? { form3: 12, form7: 12, form12: 12 } : { form3: 0, form7: 0, form12: 8 };

  for (let i = 0; i < counts.form3; i += 1) {
    const who = person();
    const created = when();
    cases.push({
      form: '3',
      id: String((caseId += 1 + Math.floor(next() * 7))),
      record: {
        id: String(caseId),
        name: 'form_3',
        form_name: 'Contact us',
        created_at: created,
        properties: {
          name: who.name,
          email: who.email,
          user_id: member(),
          form_field_3_1: next() < 0.7 ? `+64 21 ${String(Math.floor(next() * 1e6)).padStart(6, '0')}` : '',
          form_field_3_2: pick(MESSAGES),
          form_field_3_3: some(TOPICS),
          form_field_3_4: next() < 0.5 ? created + 86400 * (1 + Math.floor(next() * 10)) : null,
          form_field_3_5: next() < 0.3 ? `https://cdn.example.com/uploads/form_3/${caseId}/screenshot.png` : '',
          form_field_3_6: next() < 0.8,
        },
      },
    });
  }

  for (let i = 0; i < counts.form7; i += 1) {
    const who = person();
    const created = when();
    const photos = Math.floor(next() * 3);
    cases.push({
      form: '7',
      id: String((caseId += 1 + Math.floor(next() * 7))),
      record: {
        id: String(caseId),
        name: 'form_7',
        form_name: 'Returns and exchanges',
        created_at: created,
        properties: {
          name: who.name,
          email: who.email,
          user_id: member(),
          order_id: String(880000 + Math.floor(next() * 20000)),
          form_field_7_1: pick(REASONS),
          form_field_7_2: created - 86400 * (3 + Math.floor(next() * 40)),
          form_field_7_3: Array.from({ length: photos }, (_, n) => `/uploads/returns/${caseId}-${n + 1}.jpg`),
          form_field_7_4: next() < 0.5 ? 'Refund to original payment' : 'Exchange for another size',
          form_field_7_5: `Box opened, item ${pick(['unused', 'worn once', 'tags still on'])}.\nCustomer kept the packaging.`,
          form_field_7_6: { street: `${1 + Math.floor(next() * 200)} Cuba Street`, city: 'Wellington', postcode: '6011', country: 'NZ' },
        },
      },
    });
  }

  for (let i = 0; i < counts.form12; i += 1) {
    const who = person();
    const created = when();
    const paid = next() < 0.6;
    const properties: Record<string, unknown> = {
      name: who.name,
      email: who.email,
      user_id: member(),
      form_field_12_1: some(SESSIONS),
      form_field_12_2: pick(DIETS),
      form_field_12_3: 1 + Math.floor(next() * 4),
      form_field_12_4: new Date((created + 86400 * 30) * 1000).toISOString(),
      form_field_12_5: next() < 0.5 ? 'https://www.example.com/events/summit-2026' : '',
      form_field_12_6: [
        { guest: pick(PEOPLE).join(' '), ticket: pick(['Standard', 'VIP']) },
        ...(next() < 0.4 ? [{ guest: pick(PEOPLE).join(' '), ticket: 'Standard' }] : []),
      ],
    };
    if (paid) properties.order_id = String(880000 + Math.floor(next() * 20000));
    cases.push({
      form: '12',
      id: String((caseId += 1 + Math.floor(next() * 7))),
      record: { id: String(caseId), name: 'form_12', form_name: 'Summit registration', created_at: created, properties },
    });
  }

  return cases;
}

/** The form of the warranty claims: enough cases that the list has pages to go through. */
export const WARRANTY_FORM = '21';
export const WARRANTY_CLAIMS = 340;

const PRODUCTS = [
  'Linen throw, sage',
  'Linen duvet cover, queen',
  'Stoneware mug set (4)',
  'Waffle bath towel',
  'Merino blanket, charcoal',
  'Ceramic table lamp',
  'Cotton pillowcases (2)',
  'Rattan laundry basket',
];
const FAULTS = [
  'The seam along one edge has come apart after the second wash.',
  'Two of the mugs have hairline cracks near the handle.',
  'The colour ran in a cold wash and stained the other items.',
  'The lamp flickers and the switch feels loose.',
  'Pilling all over after a few weeks of normal use.',
  'The zip of the cover broke the first time it was used.',
  'Weave is unravelling at one corner; photos attached.',
  'Arrived with a tear in the fabric that we only found when unfolding it.',
];
const RESOLUTIONS = ['Repair', 'Replacement', 'Refund'];

/** How a run of warranty claims is generated: which form, how many, where ids start, how often they arrive. */
export interface ClaimsPlan {
  form: string;
  count: number;
  /** The ids run upwards from just after this one, 1 to 3 apart. */
  afterId: number;
  /** When the first may arrive (epoch seconds); the rest follow, `meanGapSeconds` apart on average. */
  from: number;
  meanGapSeconds: number;
  seed: number;
}

/**
 * 340 warranty claims of form 21 for the first site, from May to November 2026, ids and times rising
 * together as a real form's do: for paging, sorting and filtering in the list (a resolution to match, an
 * amount and a purchase date to compare, a description to search).
 */
export function seedWarrantyClaims(): SeedCase[] {
  return warrantyClaims({
    form: WARRANTY_FORM,
    count: WARRANTY_CLAIMS,
    afterId: 50000,
    from: 1777593600, // 2026-05-01T00:00:00Z
    meanGapSeconds: 50_600,
    seed: 20261126,
  });
}

/** Warranty claims as `plan` says, deterministic: the same plan gives the same cases. */
export function warrantyClaims(plan: ClaimsPlan): SeedCase[] {
  const { form } = plan;
  const next = random(plan.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const spread = 2 * Math.max(plan.meanGapSeconds - 600, 0);
  const cases: SeedCase[] = [];
  let created = plan.from;
  let caseId = plan.afterId;
  for (let i = 0; i < plan.count; i += 1) {
    const [first, last] = pick(PEOPLE);
    const email = `${first}.${last}`
      .normalize('NFD')
      .replace(/[^A-Za-z.]/g, '')
      .toLowerCase();
    created += 600 + Math.floor(next() * spread);
    caseId += 1 + Math.floor(next() * 3);
    const purchased = created - 86400 * (10 + Math.floor(next() * 700));
    const photos = Math.floor(next() * 3);
    cases.push({
      form,
      id: String(caseId),
      record: {
        id: String(caseId),
        name: `form_${form}`,
        form_name: 'Warranty claims',
        created_at: created,
        properties: {
          name: `${first} ${last}`,
          email: `${email}@${pick(['example.com', 'example.org', 'mail.example.net'])}`,
          user_id: next() < 0.5 ? '0' : String(100000 + Math.floor(next() * 90000)),
          order_id: String(870000 + Math.floor(next() * 30000)),
          [`form_field_${form}_1`]: pick(PRODUCTS),
          [`form_field_${form}_2`]: purchased,
          [`form_field_${form}_3`]: pick(FAULTS),
          [`form_field_${form}_4`]: `HL-${String(Math.floor(next() * 1e6)).padStart(6, '0')}`,
          [`form_field_${form}_5`]: Array.from({ length: photos }, (_, n) => `/uploads/warranty/${caseId}-${n + 1}.jpg`),
          [`form_field_${form}_6`]: pick(RESOLUTIONS),
          [`form_field_${form}_7`]: (1500 + Math.floor(next() * 48500)) / 100,
        },
      },
    });
  }
  return cases;
}

/** A product of the demo catalogue or the bench's, and when it was created (epoch seconds). */
export interface SeedProduct {
  product: WireProduct;
  createdAt: number;
}

/** The catalogue's ranges: a name, its category, its price in NZD cents, and the attribute it varies by. */
const CATALOGUE: readonly (readonly [string, string, number, 'Colour' | 'Size' | 'Set' | null])[] = [
  ['Stonewashed linen throw', '158198', 12900, 'Colour'],
  ['Linen duvet cover', '158199', 24900, 'Size'],
  ['Linen pillowcase pair', '158199', 6900, 'Colour'],
  ['Waffle bath towel', '158200', 5400, 'Colour'],
  ['Waffle hand towel', '158200', 2400, null],
  ['Merino blanket', '158198', 28900, 'Colour'],
  ['Stoneware mug', '158201', 3200, 'Set'],
  ['Stoneware dinner plate', '158201', 3800, 'Set'],
  ['Ceramic table lamp', '158202', 18900, null],
  ['Rattan laundry basket', '158202', 8900, 'Size'],
  ['Cotton tea towel', '158201', 1800, 'Set'],
  ['Wool floor cushion', '158198', 14900, 'Colour'],
  ['Oak serving board', '158201', 7400, 'Size'],
  ['Beeswax candle', '158202', 2900, null],
  ['Gift card', '158203', 5000, null],
];
const COLOURS = ['Sage', 'Oat', 'Charcoal', 'Rust', 'Sky', 'Ink'];
const SIZES = ['Single', 'Double', 'Queen', 'King'];
const SETS = ['Single', 'Set of 2', 'Set of 4'];
/** NZD to each other currency, roughly; prices are rounded to whole units less a cent, as shops price. */
const RATES: Record<Currency, number> = { nzd: 1, aud: 0.91, usd: 0.6, gbp: 0.47, eur: 0.55, cad: 0.82 };

/** What a run of catalogue products looks like: how many, from when, and what makes each slug its own. */
export interface CataloguePlan {
  count: number;
  seed: number;
  /** The first may be created then (epoch seconds); the rest follow, about `gapSeconds` apart. */
  from: number;
  gapSeconds: number;
  /** The currencies priced, the first always. */
  currencies: readonly Currency[];
  /** Added to each slug (after a hyphen), so a second run never takes the first run's slugs; none for the demo. */
  slugSuffix?: (index: number) => string;
}

const slugOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');

/**
 * Products as a shop's catalogue holds them, deterministic (the same plan gives the same products): ranges
 * in several colours or sizes, each with prices in the plan's currencies, some with attributes and options
 * (an option now and then disabled, some with their own price and stock), some disabled, some with a
 * release date weeks after their creation or an expiry date, product fields, stock and categories.
 */
export function catalogueProducts(plan: CataloguePlan): SeedProduct[] {
  const next = random(plan.seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)] as T;
  const products: SeedProduct[] = [];
  const used = new Set<string>();
  let created = plan.from;
  for (let i = 0; i < plan.count; i += 1) {
    const [range, category, nzd, varies] = CATALOGUE[i % CATALOGUE.length]!;
    const edition = Math.floor(i / CATALOGUE.length);
    const colour = COLOURS[(i + edition) % COLOURS.length]!;
    const name = varies === 'Colour' ? range : `${range}, ${colour.toLowerCase()}`;
    const titled = edition === 0 ? name : `${name}, ${2026 + edition} edition`;
    let slug = slugOf(titled);
    if (plan.slugSuffix) slug = `${slug}-${plan.slugSuffix(i)}`;
    while (used.has(slug)) slug = `${slug}-${i}`;
    used.add(slug);
    created += Math.floor(plan.gapSeconds * (0.5 + next()));
    const product: WireProduct = { name: titled, slug, enabled: next() < 0.85 ? 'true' : 'false', weighting: String(i % 10) };
    for (const currency of plan.currencies) {
      const price = Math.max(99, Math.round((nzd * RATES[currency]) / 100) * 100 - 1);
      product[productPriceKey(currency, 1)] = String(price);
      if (next() < 0.3) product[productPriceKey(currency, 2)] = String(Math.round(price * 1.2));
    }
    product[productInventoryKey(1)] = String(Math.floor(next() * 120));
    product[productFieldKey(1)] =
      `${range}. ${pick(['Machine washable.', 'Made in Portugal.', 'Handmade in Wellington.', 'Gift wrapped on request.'])}`;
    if (next() < 0.25) product.release_date = String(created + 86400 * (7 + Math.floor(next() * 60)));
    if (next() < 0.15) product.expiry_date = String(created + 86400 * (120 + Math.floor(next() * 300)));
    product.category_array = [{ id: category }];
    if (varies !== null && next() < 0.8) {
      const names = varies === 'Colour' ? COLOURS.slice(0, 2 + Math.floor(next() * 4)) : varies === 'Size' ? SIZES : SETS;
      product.attributes = [
        {
          name: varies,
          enabled: 'true',
          items: names.map((option, o) => {
            const item: WireAttributeOption = { name: option, enabled: next() < 0.9 ? 'true' : 'false' };
            if (varies !== 'Colour' && o > 0) {
              for (const currency of plan.currencies)
                item[optionPriceKey(currency, 1)] = String(Math.round((nzd * RATES[currency] * o) / 200) * 100);
            }
            item[OPTION_INVENTORY_KEY] = String(Math.floor(next() * 40));
            return item;
          }),
        },
      ];
      if (varies === 'Colour' && next() < 0.4) {
        product.attributes.push({
          name: 'Gift wrap',
          enabled: 'true',
          items: [{ name: 'No' }, { name: 'Yes', [optionPriceKey(plan.currencies[0]!, 1)]: '500' }],
        });
      }
    }
    products.push({ product, createdAt: created });
  }
  return products;
}

/**
 * The demo catalogue: 36 products for the first site (prices in NZD, AUD, USD and GBP) and 12 for every
 * other (USD, CAD and EUR), created over 2026 so the list has an order to sort by.
 */
export function seedProducts(set: SeedSet = 'full'): SeedProduct[] {
  return catalogueProducts(
    set === 'full'
      ? { count: 36, seed: 20261127, from: 1767225600, gapSeconds: 7 * 86400, currencies: ['nzd', 'aud', 'usd', 'gbp'] }
      : { count: 12, seed: 20261128, from: 1767225600, gapSeconds: 20 * 86400, currencies: ['usd', 'cad', 'eur'] },
  );
}
