/**
 * The answers of the sign-in steps (`SignInAnswer`, `SecondFactorOptions` in access.ts), read without zod:
 * the sign-in page is the first page of anyone not signed in, and loads no zod (decision 0003). Each
 * reader has the shape of a zod schema's `safeParse` (answer-reader.ts), so the fetch layer reads both alike.
 */
import { readMe, type SecondFactorOptions, type SignInAnswer } from './access';
import { readerOf } from './answer-reader';
import { isJsonObject } from './site-api-basics';
import { readSiteInfo, type SiteInfo } from './site-info';

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
