/**
 * The site profile: what an operator writes once per deployment to describe each site site-admin works
 * on (SITE_PROFILE, a JSON file). Where each site's platform is, the name of the environment variable
 * that holds its key (never the key), what its numbered fields are called, which currencies it sells in,
 * its price precision, its categories and secure zones by name, and the defaults of a new product.
 *
 * Browser-safe: the server checks the file with it at start, the Settings page checks a pasted profile
 * with it, and the browser receives each site's `SiteInfo` (the profile without where the key lives).
 */
import * as z from 'zod/mini';
import { LIST_ENVELOPE_NAMES } from './case-list';
import { CURRENCIES } from './site-api';

const SITE_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const ENV_NAME = /^[A-Z_][A-Z0-9_]*$/;
const NUMERIC = /^[1-9]\d{0,17}$/;

const text = (max: number) =>
  z.string().check(z.trim(), z.minLength(1, 'must not be empty'), z.maxLength(max, `must be at most ${max} characters`));
const help = z.optional(text(300));

const fieldLabel = z.strictObject({ label: text(80), help });

const productFieldLabel = z.strictObject({
  label: text(80),
  help,
  /** Edited in a text area with line breaks (descriptions, HTML). */
  multiline: z.optional(z.boolean()),
});

const priceTierLabel = z.strictObject({
  label: z.optional(text(80)),
  help,
  /** Tiers the site does not use are not shown and never sent. */
  hidden: z.optional(z.boolean()),
});

const choice = z.strictObject({ value: text(80), label: text(80) });

const inventoryLabel = z.union([
  z.strictObject({ label: text(80), help, kind: z.literal('number') }),
  z.strictObject({ label: text(80), help, kind: z.literal('text') }),
  z.strictObject({
    label: text(80),
    help,
    kind: z.literal('choice'),
    choices: z.array(choice).check(z.minLength(1, 'must list at least one choice'), z.maxLength(50)),
  }),
]);

export interface ReferenceNode {
  id: string;
  name: string;
  children?: ReferenceNode[];
}

const referenceNode: z.ZodMiniType<ReferenceNode> = z.strictObject({
  id: z.string().check(z.regex(NUMERIC, 'must be the numeric identifier, e.g. "158198"')),
  name: text(120),
  get children() {
    return z.optional(z.array(referenceNode).check(z.maxLength(1000)));
  },
});

const references = z.array(referenceNode).check(z.maxLength(5000));

/** Where a site's platform is: the real one, or the built-in sandbox standing in for it. */
const platform = z.union([
  z.strictObject({
    sandbox: z.literal(true),
    siteId: z.string().check(z.regex(/^\d{1,18}$/, 'must be the numeric site identifier')),
  }),
  z.strictObject({
    baseUrl: z.string().check(
      z.refine((value) => {
        try {
          const url = new URL(value);
          return (url.protocol === 'https:' || url.protocol === 'http:') && url.pathname.replace(/\/+$/, '').endsWith('/api/site/v2');
        } catch {
          return false;
        }
      }, 'must be the platform’s address ending in /api/site/v2, e.g. "https://www.example.com/api/site/v2"'),
    ),
    siteId: z.string().check(z.regex(/^\d{1,18}$/, 'must be the numeric site identifier')),
    apiKeyEnv: z
      .string()
      .check(z.regex(ENV_NAME, 'must be the name of an environment variable (capital letters, digits and "_"), not the key itself')),
  }),
]);

const slotRecord = <S extends string, T extends z.ZodMiniType>(slots: readonly S[], value: T) =>
  z.optional(z.partialRecord(z.enum(slots as unknown as [S, ...S[]]), value));

const form = z.strictObject({
  name: z.optional(text(120)),
  /** Labels of the record's keys, e.g. "form_field_3_1": "Phone". */
  fields: z.optional(z.record(z.string().check(z.maxLength(120)), text(120))),
  /**
   * The inbox's columns after "Received", in order: keys of the record's `properties` (`email`,
   * `form_field_21_6`). Without it the inbox shows the name, the e-mail and the form's first text fields.
   */
  inboxColumns: z.optional(
    z.array(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be a field name, e.g. "email"'))).check(
      z.minLength(1, 'must name at least one column'),
      z.maxLength(6, 'may name at most 6 columns'),
      z.refine((list) => new Set(list).size === list.length, 'names a column twice'),
    ),
  ),
});

export const siteSchema = z
  .strictObject({
    id: z
      .string()
      .check(z.regex(SITE_ID, 'must be lower-case letters and digits joined by hyphens, e.g. "harbour-linen"'), z.maxLength(40)),
    name: text(80),
    platform,
    money: z.optional(
      z.strictObject({
        currencies: z.optional(
          z.array(z.enum(CURRENCIES)).check(
            z.minLength(1, 'must list at least one currency'),
            z.refine((list) => new Set(list).size === list.length, 'lists a currency twice'),
          ),
        ),
        decimals: z.optional(z.literal([2, 4])),
      }),
    ),
    labels: z.optional(
      z.strictObject({
        productFields: slotRecord(['1', '2', '3', '4', '5'], productFieldLabel),
        priceTiers: slotRecord(['1', '2', '3', '4'], priceTierLabel),
        optionPriceTiers: slotRecord(['1', '2'], priceTierLabel),
        inventory: slotRecord(['1', '2', '3'], inventoryLabel),
        optionFields: slotRecord(['2', '3', '4', '6'], fieldLabel),
        optionStock: z.optional(fieldLabel),
      }),
    ),
    forms: z.optional(z.record(z.string().check(z.regex(/^[A-Za-z0-9_-]{1,64}$/, 'must be a form identifier')), form)),
    references: z.optional(
      z.strictObject({
        categories: z.optional(references),
        secureZones: z.optional(references),
        /** `objects` sends [{"id": "158198"}] (the spec's word); `ids` sends ["158198"] (what the platform stores). */
        categoryEncoding: z.optional(z.enum(['objects', 'ids'])),
      }),
    ),
    lists: z.optional(
      z.strictObject({
        /**
         * Where a list's items and totals are in the platform's answer, which the platform does not publish:
         * one of LIST_ENVELOPE_NAMES (src/contract/case-list.ts); `results` by default, what the sandbox answers.
         */
        envelope: z.optional(z.enum(LIST_ENVELOPE_NAMES)),
      }),
    ),
    products: z.optional(
      z.strictObject({
        /**
         * Where the platform writes a product record's ids and an attribute's options, which it does not
         * publish: `id` and `items` by default, what the sandbox answers (src/contract/products.ts).
         */
        record: z.optional(
          z.strictObject({
            id: z.optional(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be a key, e.g. "id"'))),
            options: z.optional(z.string().check(z.regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'must be a key, e.g. "items"'))),
          }),
        ),
      }),
    ),
    defaults: z.optional(
      z.strictObject({
        enabled: z.optional(z.boolean()),
        weighting: z.optional(z.string().check(z.regex(/^-?(0|[1-9]\d{0,8})$/, 'must be a whole number, e.g. "10"'))),
        categories: z.optional(z.array(z.string().check(z.regex(NUMERIC, 'must be a category identifier')))),
      }),
    ),
  })
  .check(
    z.superRefine((site, ctx) => {
      if (site.labels?.priceTiers?.['1']?.hidden) {
        ctx.addIssue({
          code: 'custom',
          path: ['labels', 'priceTiers', '1', 'hidden'],
          message: 'tier 1 is the price charged and cannot be hidden',
          input: site,
        });
      }
      const known = new Set(flattenReferences(site.references?.categories ?? []).map((node) => node.id));
      site.defaults?.categories?.forEach((id, index) => {
        if (!known.has(id)) {
          ctx.addIssue({
            code: 'custom',
            path: ['defaults', 'categories', index],
            message: `category ${id} is not in references.categories`,
            input: site,
          });
        }
      });
    }),
  );

export const siteProfileSchema = z.strictObject({
  sites: z.array(siteSchema).check(
    z.minLength(1, 'must describe at least one site'),
    z.maxLength(500),
    z.superRefine((sites, ctx) => {
      const seen = new Map<string, number>();
      sites.forEach((site, index) => {
        const first = seen.get(site.id);
        if (first !== undefined)
          ctx.addIssue({
            code: 'custom',
            path: [index, 'id'],
            message: `"${site.id}" is already the id of site ${first + 1}`,
            input: sites,
          });
        else seen.set(site.id, index);
      });
    }),
  ),
});

export type SiteProfile = z.infer<typeof siteProfileSchema>;
export type SiteConfig = z.infer<typeof siteSchema>;

/** Every node of a tree of categories or secure zones, parents before their children. */
export function flattenReferences(nodes: readonly ReferenceNode[], trail: readonly string[] = []): (ReferenceNode & { trail: string[] })[] {
  return nodes.flatMap((node) => [{ ...node, trail: [...trail] }, ...flattenReferences(node.children ?? [], [...trail, node.name])]);
}

/** "sites[0].money.decimals": the JSON path of a problem, as people read it. */
export function formatProfilePath(path: readonly PropertyKey[]): string {
  let out = '';
  for (const part of path) {
    if (typeof part === 'number') out += `[${part}]`;
    else out += out === '' ? String(part) : /^[\w$-]+$/.test(String(part)) ? `.${String(part)}` : `[${JSON.stringify(String(part))}]`;
  }
  return out || '(the whole file)';
}

export interface ProfileProblem {
  path: string;
  message: string;
}

/** Checks a profile's text: the parsed profile, or every problem with its JSON path. */
export function checkSiteProfile(text: string): { ok: true; profile: SiteProfile } | { ok: false; problems: ProfileProblem[] } {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    return { ok: false, problems: [{ path: '(the whole file)', message: `is not JSON: ${(error as Error).message}` }] };
  }
  const parsed = siteProfileSchema.safeParse(json);
  if (parsed.success) return { ok: true, profile: parsed.data };
  return {
    ok: false,
    problems: parsed.error.issues.map((issue) => ({ path: formatProfilePath(issue.path), message: issueMessage(issue) })),
  };
}

function issueMessage(issue: z.core.$ZodIssue): string {
  if (issue.code === 'unrecognized_keys') return `has ${issue.keys.map((k) => `"${k}"`).join(', ')}, which a site profile does not know`;
  if (issue.code === 'invalid_type')
    return `must be ${issue.expected === 'string' ? 'a string' : issue.expected === 'object' ? 'an object' : issue.expected === 'array' ? 'a list' : issue.expected}`;
  if (issue.code === 'invalid_value') return `must be one of ${issue.values.map((v) => JSON.stringify(v)).join(', ')}`;
  if (issue.code === 'invalid_union') return 'is none of the accepted shapes (see the README’s site profile section)';
  return issue.message;
}
