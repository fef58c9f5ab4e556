/**
 * The answers of the sign-in steps (`SignInAnswer` here, `SecondFactorOptions` in access.ts), read without zod:
 * the sign-in page is the first page of anyone not signed in, and loads no zod (decision 0003). Each
 * reader has the shape of a zod schema's `safeParse` (answer-reader.ts), so the fetch layer reads both alike.
 */
import { readMe, type Me, type SecondFactorOptions } from './access';
import { readerOf } from './answer-reader';
import { isJsonObject } from './site-api-basics';
import { readSiteInfo, type SiteInfo } from './site-info';

/**
 * The answer to a sign-in step: signed in (the session's cookie came with it, and who the person is and the
 * sites they may use, as `GET /api/sites` answers them, so the page need not ask again), or a second step is needed
 * (`second-factor`: confirm with a passkey; the pending sign-in is held by a cookie of its own). `setUp`:
 * the person must have a passkey and has none yet: they add one now, on this device, to finish signing in.
 */
export type SignInAnswer =
  { result: 'signed-in'; me: Me; sites: SiteInfo[] } | { result: 'second-factor'; ways: 'passkey'[]; setUp?: boolean };

/** A sign-in's answer when the person is in. */
export type SignedIn = Extract<SignInAnswer, { result: 'signed-in' }>;

export function readSignInAnswer(value: unknown): SignInAnswer | null {
  if (!isJsonObject(value)) return null;
  if (value.result === 'signed-in') {
    const me = readMe(value.me);
    const sites = Array.isArray(value.sites) ? value.sites.map(readSiteInfo) : null;
    if (!me || !sites || sites.some((site) => site === null)) return null;
    return { result: 'signed-in', me, sites: sites as SiteInfo[] };
  }
  if (value.result !== 'second-factor') return null;
  const { ways, setUp } = value;
  if (!Array.isArray(ways) || !ways.every((way) => way === 'passkey')) return null;
  if (setUp !== undefined && typeof setUp !== 'boolean') return null;
  return { result: 'second-factor', ways: ways.map(() => 'passkey' as const), ...(setUp === undefined ? {} : { setUp }) };
}

export function readSecondFactorOptions(value: unknown): SecondFactorOptions | null {
  if (!isJsonObject(value) || typeof value.setUp !== 'boolean' || !isJsonObject(value.options)) return null;
  return { setUp: value.setUp, options: value.options };
}

export const signInAnswerReader = readerOf(readSignInAnswer);
export const secondFactorOptionsReader = readerOf(readSecondFactorOptions);
