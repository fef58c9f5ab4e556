/**
 * What the platform answers is checked, not trusted, before it is served on our origin:
 *
 * - a success must be `application/json` (the media type parsed, not guessed from a substring) and must
 *   parse as JSON; anything else becomes 502;
 * - an error reaches the browser in the spec's error shape (status phrase, message, code, details), with the
 *   platform's own text kept in the message when it used another shape;
 * - the API key is removed from any answer that echoes it.
 *
 * A success is passed on as the platform wrote it (numbers beyond 2^53 stay exact) unless the key has to
 * be cut out of it; bytes that are not UTF-8 arrive as U+FFFD.
 */
import { parse as parseContentType } from 'content-type';
import type { IncomingHttpHeaders, IncomingMessage } from 'node:http';
import { capDetails } from '../src/contract/rules';
import type { ErrorDetail } from '../src/contract/site-api';
import { statusPhrase } from './answers';

/** What replaces the key wherever the platform echoed it. */
export const REDACTED = '[redacted]';
/** How much of a platform's own error text is kept in the message. */
const MAX_PLATFORM_TEXT = 500;

export type PlatformAnswer =
  | { kind: 'json'; status: number; body: string; bytes: number; headers: Record<string, string> }
  | { kind: 'error'; status: number; message: string; details?: ErrorDetail[]; headers: Record<string, string> };

export interface AnswerOptions {
  apiKey: string;
  maxAnswerBytes: number;
}

/** The last Content-Type judged, and the verdict: a platform sends the same one on every answer. */
let lastMediaType: { header: string; json: boolean } | undefined;

/** Only `application/json` (any case, parameters allowed), in UTF-8 when a charset is named. */
export function isJsonMediaType(header: string | undefined): boolean {
  if (!header) return false;
  if (lastMediaType?.header === header) return lastMediaType.json;
  const { type, parameters } = parseContentType(header);
  const charset = parameters.charset?.toLowerCase();
  const json = type === 'application/json' && (charset === undefined || charset === 'utf-8' || charset === 'utf8');
  lastMediaType = { header, json };
  return json;
}

/** The forms of each key, worked out once per key rather than on every answer. */
const keyFormsCache = new Map<string, string[]>();

function keyForms(key: string): string[] {
  if (key === '') return [];
  let forms = keyFormsCache.get(key);
  if (!forms) {
    forms = [...new Set([key, encodeURIComponent(key), JSON.stringify(key).slice(1, -1)])];
    // A server holds a few keys; the bound only guards against a caller passing endless ones.
    if (keyFormsCache.size > 64) keyFormsCache.clear();
    keyFormsCache.set(key, forms);
  }
  return forms;
}

/**
 * Whether escapes in JSON text could spell the key where the text does not show it. A `\u` escape can
 * spell any character; `\"`, `\\` and `\/` only those three; every other escape (`\n`, `\t`, ...)
 * stands for a control character, which a key of printable ASCII never holds. So a case record full of
 * line breaks is not parsed a second time to look for a key it cannot hide.
 */
function escapesCouldHide(text: string, key: string): boolean {
  if (!text.includes('\\')) return false;
  if (text.includes('\\u')) return true;
  return /[^\x20-\x7e]|["\\/]/.test(key);
}

/** The text with every occurrence of the key (as is, URL-encoded or JSON-escaped) replaced. */
export function withoutKey(text: string, key: string): string {
  let out = text;
  for (const form of keyForms(key)) out = out.split(form).join(REDACTED);
  return out;
}

function containsKey(value: unknown, key: string): boolean {
  if (typeof value === 'string') return value.includes(key);
  if (Array.isArray(value)) return value.some((v) => containsKey(v, key));
  if (value !== null && typeof value === 'object') {
    return Object.entries(value).some(([k, v]) => k.includes(key) || containsKey(v, key));
  }
  return false;
}

function scrubValue(value: unknown, key: string): unknown {
  if (typeof value === 'string') return withoutKey(value, key);
  if (Array.isArray(value)) return value.map((v) => scrubValue(v, key));
  if (value !== null && typeof value === 'object') {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) {
      Object.defineProperty(out, withoutKey(k, key), { value: scrubValue(v, key), enumerable: true, writable: true, configurable: true });
    }
    return out;
  }
  return value;
}

function tryParse(text: string): { ok: true; value: unknown } | { ok: false } {
  try {
    return { ok: true, value: JSON.parse(text) as unknown };
  } catch {
    return { ok: false };
  }
}

/** JSON text without the key: the platform's own text where possible, rebuilt only when escapes hide the key. */
export function jsonWithoutKey(text: string, parsed: unknown, key: string): string {
  if (key === '') return text;
  const visible = keyForms(key).some((form) => text.includes(form));
  // Without an escape that could spell it, what is not visible is not there.
  if (!visible && !escapesCouldHide(text, key)) return text;
  const replaced = visible ? withoutKey(text, key) : text;
  const check = tryParse(replaced);
  if (check.ok && !containsKey(check.value, key)) return replaced;
  return JSON.stringify(scrubValue(parsed, key));
}

/** Response headers worth passing on: a sane Retry-After (the browser backs off on 429 and 503). */
function passedHeaders(headers: IncomingHttpHeaders): Record<string, string> {
  const retryAfter = headers['retry-after'];
  if (
    typeof retryAfter === 'string' &&
    (/^\d{1,9}$/.test(retryAfter) || (retryAfter.length < 64 && !Number.isNaN(Date.parse(retryAfter))))
  ) {
    return { 'retry-after': retryAfter };
  }
  return {};
}

function excerpt(text: string): string {
  const flat = text.replace(/\s+/g, ' ').trim();
  return flat.length > MAX_PLATFORM_TEXT ? `${flat.slice(0, MAX_PLATFORM_TEXT)}…` : flat;
}

function wellFormedDetails(value: unknown, key: string): ErrorDetail[] | undefined {
  if (!Array.isArray(value)) return undefined;
  const details: ErrorDetail[] = [];
  for (const entry of value as unknown[]) {
    if (entry === null || typeof entry !== 'object') continue;
    const { field, message } = entry as Record<string, unknown>;
    if (typeof field === 'string' && typeof message === 'string') {
      details.push({ field: withoutKey(field, key), message: withoutKey(message, key) });
    }
  }
  return details.length > 0 ? details : undefined;
}

/** Classifies one complete platform answer. */
export function classifyAnswer(status: number, headers: IncomingHttpHeaders, body: Buffer, apiKey: string): PlatformAnswer {
  const type = headers['content-type'];
  const json = isJsonMediaType(type);
  const text = body.toString('utf8');
  const pass = passedHeaders(headers);
  const bad = (message: string): PlatformAnswer => ({ kind: 'error', status: 502, message, headers: {} });

  if (status >= 200 && status < 300) {
    if (!json) {
      return bad(
        `The platform answered ${status} with ${type ? `Content-Type "${withoutKey(type, apiKey)}"` : 'no Content-Type'}, not application/json.`,
      );
    }
    const parsed = tryParse(text);
    if (!parsed.ok) return bad(`The platform answered ${status} with a body that is not JSON.`);
    const served = jsonWithoutKey(text, parsed.value, apiKey);
    // Served as text: Node then writes the head and the body in one write, measurably cheaper than two.
    // Its length is counted again: bytes that are not UTF-8 were read as U+FFFD, which is longer.
    return { kind: 'json', status, body: served, bytes: Buffer.byteLength(served), headers: pass };
  }

  if (status >= 400 && status < 600) {
    const phrase = statusPhrase(status);
    const parsed = json ? tryParse(text) : { ok: false as const };
    const object =
      parsed.ok && parsed.value !== null && typeof parsed.value === 'object' && !Array.isArray(parsed.value)
        ? (parsed.value as Record<string, unknown>)
        : undefined;
    const platformMessage = typeof object?.message === 'string' && object.message.trim() !== '' ? object.message : undefined;
    const inShape = platformMessage !== undefined && typeof object?.error === 'string' && object.code === status;
    const raw = platformMessage ?? (parsed.ok ? JSON.stringify(parsed.value) : text);
    const said = excerpt(withoutKey(raw, apiKey));
    const message = inShape
      ? withoutKey(platformMessage, apiKey)
      : `The platform answered ${status} (${phrase})${said ? `: ${said}` : ' without an explanation.'}`;
    const capped = capDetails(wellFormedDetails(object?.details, apiKey) ?? []);
    return {
      kind: 'error',
      status,
      message: capped.total > capped.details.length ? `${message} ${capped.note}` : message,
      details: capped.details.length > 0 ? capped.details : undefined,
      headers: pass,
    };
  }

  return bad(`The platform answered with status ${status}, which is not an answer of Site API v2.`);
}

/** Reads the platform's whole answer (up to maxAnswerBytes) and hands over what to serve. */
export function readPlatformAnswer(res: IncomingMessage, options: AnswerOptions, done: (answer: PlatformAnswer) => void) {
  const chunks: Buffer[] = [];
  let size = 0;
  let finished = false;
  const finish = (answer: PlatformAnswer) => {
    if (finished) return;
    finished = true;
    done(answer);
  };
  const brokeOff = () =>
    finish({ kind: 'error', status: 502, message: 'The platform could not be reached, or broke off its answer.', headers: {} });
  res.on('data', (chunk: Buffer) => {
    if (finished) return;
    size += chunk.length;
    if (size > options.maxAnswerBytes) {
      finish({ kind: 'error', status: 502, message: `The platform's answer is larger than ${options.maxAnswerBytes} bytes.`, headers: {} });
      res.destroy();
      return;
    }
    chunks.push(chunk);
  });
  res.on('end', () => finish(classifyAnswer(res.statusCode ?? 0, res.headers, Buffer.concat(chunks), options.apiKey)));
  res.on('error', brokeOff);
  res.on('close', () => {
    if (!res.complete) brokeOff();
  });
}
