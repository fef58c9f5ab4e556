/**
 * The server's own reads of a site's platform, for what no browser asks for directly: the shared reading of
 * a form's newest cases (the inbox's counts) and the pages of an export. The same site address, key and site
 * id as the site's proxy, the same operation (`GET /forms/{form}/cases`, with a query the allowlist's rules
 * accept), and the same envelope (the site profile's `lists.envelope`). A person's reads of a site go through
 * the proxy and the pipeline, never through here.
 *
 * Built on fetch rather than the proxy's node:http streams: a few reads a minute per form, where the proxy's
 * throughput does not matter and a whole answer is read and parsed anyway.
 */
import {
  caseListSearch,
  DEFAULT_LIST_ENVELOPE,
  formCasesPath,
  readListEnvelope,
  type CaseListQuery,
  type ListEnvelope,
  type ListEnvelopeContent,
} from '../src/contract/case-list';
import { parseListAnswer } from '../src/contract/case-list-items';
import { productPath } from '../src/contract/products';

/** A list page's reading: its content, the platform's "no cases" (404), or why there is none. */
export type CaseListReading =
  { kind: 'page'; content: ListEnvelopeContent } | { kind: 'empty' } | { kind: 'failed'; status: number | null; reason: string };

/** One product's reading: the platform's answer as text (what the record keeps and the fingerprint is of), its 404, or why there is none. */
export type ProductReading =
  { kind: 'found'; text: string } | { kind: 'missing' } | { kind: 'failed'; status: number | null; reason: string };

export interface PlatformReader {
  /** One page of a form's cases, as the platform answers `query`. */
  caseList(form: string, query: CaseListQuery): Promise<CaseListReading>;
  /** One product, `GET /ecommerce/products/{id}`, just before an update of it is sent. */
  product(id: string): Promise<ProductReading>;
}

export interface PlatformReaderOptions {
  /** The platform's base address, ending in /api/site/v2. */
  upstream: URL;
  apiKey: string;
  siteId: string;
  timeoutMs: number;
  /** The site profile's `lists.envelope`. */
  envelope?: ListEnvelope;
  /** The largest answer read; a larger one is a failed reading. */
  maxAnswerBytes?: number;
}

const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

export function createPlatformReader(options: PlatformReaderOptions): PlatformReader {
  const envelope = options.envelope ?? DEFAULT_LIST_ENVELOPE;
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const base = options.upstream.href.replace(/\/$/, '');
  /** An answer's text, or why there is none: no answer, one too large, one broken off. */
  const fetchText = async (
    path: string,
  ): Promise<{ status: number; text: string } | { kind: 'failed'; status: number | null; reason: string }> => {
    let answer: Response;
    try {
      answer = await fetch(`${base}${path}`, {
        headers: { accept: 'application/json', 'x-api-key': options.apiKey, 'x-site-id': options.siteId },
        signal: AbortSignal.timeout(options.timeoutMs),
      });
    } catch (error) {
      return { kind: 'failed', status: null, reason: `the platform could not be reached (${(error as Error).message})` };
    }
    const declared = Number(answer.headers.get('content-length') ?? 0);
    if (declared > maxAnswerBytes) {
      await answer.body?.cancel();
      return { kind: 'failed', status: answer.status, reason: `the answer is larger than ${maxAnswerBytes} bytes` };
    }
    try {
      return { status: answer.status, text: await answer.text() };
    } catch (error) {
      return { kind: 'failed', status: answer.status, reason: `the answer could not be read (${(error as Error).message})` };
    }
  };
  return {
    async product(id) {
      const read = await fetchText(productPath(id));
      if ('kind' in read) return read;
      if (read.status === 404) return { kind: 'missing' };
      if (read.status < 200 || read.status > 299)
        return { kind: 'failed', status: read.status, reason: `the platform answered ${read.status}` };
      return { kind: 'found', text: read.text };
    },
    async caseList(form, query) {
      const url = `${base}${formCasesPath(form)}${caseListSearch(query)}`;
      let answer: Response;
      try {
        answer = await fetch(url, {
          headers: { accept: 'application/json', 'x-api-key': options.apiKey, 'x-site-id': options.siteId },
          signal: AbortSignal.timeout(options.timeoutMs),
        });
      } catch (error) {
        return { kind: 'failed', status: null, reason: `the platform could not be reached (${(error as Error).message})` };
      }
      const declared = Number(answer.headers.get('content-length') ?? 0);
      if (declared > maxAnswerBytes) {
        await answer.body?.cancel();
        return { kind: 'failed', status: answer.status, reason: `the answer is larger than ${maxAnswerBytes} bytes` };
      }
      let text: string;
      try {
        text = await answer.text();
      } catch (error) {
        return { kind: 'failed', status: answer.status, reason: `the answer could not be read (${(error as Error).message})` };
      }
      if (answer.status === 404) return { kind: 'empty' };
      if (answer.status < 200 || answer.status > 299) {
        return { kind: 'failed', status: answer.status, reason: `the platform answered ${answer.status}` };
      }
      let json: unknown;
      try {
        json = parseListAnswer(text);
      } catch {
        return { kind: 'failed', status: answer.status, reason: 'the answer is not JSON' };
      }
      const read = readListEnvelope(envelope, json);
      if (!read.ok)
        return { kind: 'failed', status: answer.status, reason: `the answer is not the "${envelope}" envelope: ${read.problem}` };
      return { kind: 'page', content: read.content };
    },
  };
}
