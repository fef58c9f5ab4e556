/**
 * Every page's address, in one typed table. Routes, links and `navigate` all take their paths from here
 * (the router accepts nothing else), so a path is written once, a page's params are typed by its
 * pattern, and so is the state its history entry may carry.
 */

import { isJsonObject } from '@/contract/site-api-basics';

export const PATHS = {
  home: '/',
  cases: '/cases',
  /** A form's inbox: its cases newest first; filters, team filters and position in the query (inbox-address.ts). */
  inbox: '/cases/:form',
  case: '/cases/:form/:id',
  products: '/products',
  newProduct: '/products/new',
  importProducts: '/products/import',
  /** A product of the import in the full editor; `row` is its first row as the import numbers rows ("Row 2"). */
  editImported: '/products/import/edit/:row',
  createdProduct: '/products/created/:id',
  /** The site's products on the platform: searched, sorted, paged (the Catalogue). */
  catalogue: '/catalogue',
  /** One product of the catalogue in the editor, to correct it (`id`: the platform's product id). */
  catalogueProduct: '/catalogue/:id',
  settings: '/settings',
  /** The person's own account: name, password, passkeys, sessions. */
  account: '/account',
  /** People and their roles (owners). */
  people: '/people',
  /** The activity record: everyone's for owners, one's own for others. */
  activity: '/activity',
  /** The changes waiting for a second person's approval (and the closed ones), and an owner's rule of each site. */
  approvals: '/approvals',
  /** One change: exactly what will be sent, its history, and what the person may do with it. */
  approval: '/approvals/:id',
} as const;

export type PathName = keyof typeof PATHS;
export type PathPattern = (typeof PATHS)[PathName];

type ParamNames<P extends string> = P extends `${string}:${infer Name}/${infer Rest}`
  ? Name | ParamNames<Rest>
  : P extends `${string}:${infer Name}`
    ? Name
    : never;

/** `PathParams<'case'>` is `{ form: string; id: string }`. */
export type PathParams<N extends PathName> = { [K in ParamNames<(typeof PATHS)[N]>]: string };

declare const pathName: unique symbol;
/** A path built from the table (only `pathTo` makes one): a plain string that remembers its page. */
export type Href<N extends PathName = PathName> = string & { readonly [pathName]: N };

/**
 * What a page's history entry may carry. History outlives the code that wrote it (a reload, an old tab),
 * so state is always read back through its reader (`readPathState`), never cast. The readers are written
 * without zod, because the router is on the first page, which loads none; like a zod object, each keeps
 * only the keys it knows and refuses a known key of the wrong type.
 */
interface CaseState {
  /** Arrived by the lookup form (not by a link, Back or Forward): focus goes to the outcome. */
  lookup?: boolean;
  /** What the form box held when it was read as another identifier: `form_3` read as `3`. */
  formReadAs?: { typed: string; form: string };
}

interface NewProductState {
  /**
   * Start from this product (its slug is left out): "Start a new product from this one". Any object here;
   * the editor checks it against the contract's product schema before using it.
   */
  template?: Record<string, unknown>;
  /** Edit this pending change (its id, at this version): the editor opens its stored body, and saving asks again. */
  change?: string;
  version?: number;
}

interface CatalogueProductState {
  /** Edit this pending change of the product (its id, at this version), as NewProductState's. */
  change?: string;
  version?: number;
}

interface CreatedProductState {
  /** Arrived straight from Create: the page says the product was created. */
  justCreated?: boolean;
}

type Fields = Record<string, unknown>;
const isBoolean = (value: unknown): value is boolean => typeof value === 'boolean';
const isVersion = (value: unknown): value is number => typeof value === 'number' && Number.isInteger(value) && value >= 1;
const isText = (value: unknown): value is string => typeof value === 'string' && value !== '';
const isFormReadAs = (value: unknown): value is { typed: string; form: string } =>
  isJsonObject(value) && typeof value.typed === 'string' && typeof value.form === 'string';

/** The known keys of `raw` that are set, each passing its check; undefined when one does not. */
function readFields<T>(raw: Fields, checks: { [K in keyof T]-?: (value: unknown) => boolean }): T | undefined {
  const out: Fields = {};
  for (const [key, check] of Object.entries<(value: unknown) => boolean>(checks)) {
    const value = raw[key];
    if (value === undefined) continue;
    if (!check(value)) return undefined;
    out[key] = value;
  }
  return out as T;
}

const STATE_READERS = {
  case: (raw: Fields) => {
    const state = readFields<CaseState>(raw, { lookup: isBoolean, formReadAs: isFormReadAs });
    const readAs = state?.formReadAs;
    return readAs ? { ...state, formReadAs: { typed: readAs.typed, form: readAs.form } } : state;
  },
  newProduct: (raw: Fields) => readFields<NewProductState>(raw, { template: isJsonObject, change: isText, version: isVersion }),
  catalogueProduct: (raw: Fields) => readFields<CatalogueProductState>(raw, { change: isText, version: isVersion }),
  createdProduct: (raw: Fields) => readFields<CreatedProductState>(raw, { justCreated: isBoolean }),
};

export type StatefulPathName = keyof typeof STATE_READERS;
export type PathState<N extends PathName> = N extends StatefulPathName ? NonNullable<ReturnType<(typeof STATE_READERS)[N]>> : never;

/** Reads a history entry's state for page `name`; undefined when there is none or it is not that page's. */
export function readPathState<N extends StatefulPathName>(name: N, raw: unknown): PathState<N> | undefined {
  if (!isJsonObject(raw)) return undefined;
  return STATE_READERS[name](raw) as PathState<N> | undefined;
}

type ParamsArgs<N extends PathName> = [ParamNames<(typeof PATHS)[N]>] extends [never] ? [] : [params: PathParams<N>];

/** The address of page `name`: `pathTo('case', { form: '3', id: '48217' })` is `/cases/3/48217`. */
export function pathTo<N extends PathName>(name: N, ...args: ParamsArgs<N>): Href<N> {
  const params = (args[0] ?? {}) as Record<string, string>;
  const path = PATHS[name].replace(/:([A-Za-z]+)/g, (_, key: string) => encodeURIComponent(params[key] ?? ''));
  return path as Href<N>;
}

/** `href` with a query (`/activity?person=…`): still that page's address; `href` itself when the query is empty. */
export function withQuery<N extends PathName>(href: Href<N>, query: URLSearchParams): Href<N> {
  const text = query.toString();
  return (text ? `${href}?${text}` : href) as Href<N>;
}

/**
 * Matches a pattern such as `/cases/:form/:id` (`*` matches anything) against a pathname; params are
 * decoded. With `end: false` the pattern may match a prefix.
 */
export function matchPath(pattern: string, pathname: string, end = true): Record<string, string> | null {
  if (pattern === '*') return {};
  const parts = pattern
    .replace(/^\/+|\/+$/g, '')
    .split('/')
    .filter(Boolean);
  const segments = pathname
    .replace(/^\/+|\/+$/g, '')
    .split('/')
    .filter(Boolean);
  const params: Record<string, string> = {};
  let i = 0;
  for (const part of parts) {
    const segment = segments[i];
    if (segment === undefined) return null;
    if (part.startsWith(':')) {
      try {
        params[part.slice(1)] = decodeURIComponent(segment);
      } catch {
        return null;
      }
    } else if (segment !== part) {
      return null;
    }
    i += 1;
  }
  if (end && i < segments.length) return null;
  return params;
}

/** The params of page `name` when `pathname` is its address, else null. */
export function matchPathName<N extends PathName>(name: N, pathname: string): PathParams<N> | null {
  return matchPath(PATHS[name], pathname) as PathParams<N> | null;
}
