/**
 * Reads the platform's answer to a list of a form's cases (`GET /forms/{form}/cases`) through the envelope
 * its site profile names (`sites[].lists.envelope`, src/contract/case-list.ts), and nothing else:
 *
 * - the platform's 404 is how it says a form has no cases (or none that match): an empty page, never an
 *   error; a 404 of our own server (no such site) stays an error;
 * - a success in another shape than the profile describes, or one that is not the page asked for, is an
 *   `ApiError` of the class `unreadable` that also carries the raw answer and the envelopes it does match,
 *   so a person (and the Settings page's check) can see what the platform sent and which setting fits it.
 */
import {
  caseListSearch,
  DEFAULT_LIST_ENVELOPE,
  describeListEnvelope,
  envelopesMatching,
  formCasesPath,
  readListEnvelope,
  type CaseListQuery,
  type ListEnvelope,
} from '@/contract/case-list';
import type { FormCase } from '@/contract/site-api';
import type { SiteInfo } from '@/contract/site-info';
import { getAnswer } from './api-client';
import { apiBasePath } from './site-scope';
import { ApiError, apiErrors, classifyAnswer } from './api-error';
import { readErrorBody } from './error-body';

/** One page of a form's cases as the reader understood it. */
export interface CaseListPage {
  cases: FormCase[];
  /** Cases in the whole list (every page); null when the envelope carries no total. */
  total: number | null;
  page: number;
  perPage: number;
  /** Whether a page after this one may hold cases: by the total, or without one, by a full page. */
  hasMore: boolean;
  /** The platform's 404: the form holds no cases, or none that match the filter. */
  noCases: boolean;
}

/** What arrived, as the fetch layer reads every answer. */
export interface ListAnswer {
  status: number;
  /** The platform's status as our server reports it (`x-platform-status`); null when the platform did not answer. */
  platformStatus: number | null;
  retryAfter?: string | null;
  text: string;
}

/** A list answered in a shape the site profile does not describe: the raw answer, and which envelopes it fits. */
export class ListEnvelopeError extends ApiError {
  /** The platform's answer exactly as it arrived. */
  readonly raw: string;
  readonly expected: ListEnvelope;
  /** The envelopes the answer can be read through (empty when none): the setting that would read it. */
  readonly found: ListEnvelope[];
  /** What is wrong with it, in words. */
  readonly problem: string;

  constructor(init: {
    status: number;
    platformStatus: number | null;
    raw: string;
    expected: ListEnvelope;
    found: ListEnvelope[];
    problem: string;
  }) {
    const fits = init.found.length > 0 ? ` It is the "${init.found.join('" or "')}" envelope: set sites[].lists.envelope to read it.` : '';
    super({
      failure: classifyAnswer(init.status, init.platformStatus, 'not-json'),
      status: init.status,
      message:
        `The platform answered the list of cases in a shape the site profile does not describe: ${init.problem}. ` +
        `The profile names the "${init.expected}" envelope, ${describeListEnvelope(init.expected)}.${fits}`,
    });
    this.name = 'ListEnvelopeError';
    this.raw = init.raw;
    this.expected = init.expected;
    this.found = init.found;
    this.problem = init.problem;
  }
}

/** The envelope a site's lists come in: its profile's, or the default. */
export const listEnvelopeOf = (site: Pick<SiteInfo, 'lists'>): ListEnvelope => site.lists?.envelope ?? DEFAULT_LIST_ENVELOPE;

/**
 * The page in `answer`, read through `envelope`; `asked` is the page and page size that were asked for.
 * `parse` reads the text (the exact parser in the browser, so numbers stay as the platform wrote them).
 * Throws an `ApiError` for an error answer and a `ListEnvelopeError` for a success it cannot read.
 */
export function readCaseListAnswer(
  answer: ListAnswer,
  envelope: ListEnvelope,
  asked: { page: number; perPage: number },
  parse: (text: string) => unknown = JSON.parse,
): CaseListPage {
  const { status, platformStatus } = answer;
  const retryAfter = answer.retryAfter ?? null;
  if (status === 404 && platformStatus === 404) {
    return { cases: [], total: 0, page: asked.page, perPage: asked.perPage, hasMore: false, noCases: true };
  }
  let json: unknown;
  try {
    json = parse(answer.text);
  } catch {
    throw apiErrors.notJson(status, platformStatus, retryAfter);
  }
  if (status < 200 || status >= 300) throw apiErrors.answered(status, platformStatus, readErrorBody(json), retryAfter);

  const fail = (problem: string): never => {
    throw new ListEnvelopeError({ status, platformStatus, raw: answer.text, expected: envelope, found: envelopesMatching(json), problem });
  };
  const read = readListEnvelope(envelope, json);
  if (!read.ok) return fail(read.problem);
  const { items, total, page, perPage } = read.content;
  if (page !== null && page !== asked.page) return fail(`it is page ${page}, not page ${asked.page} as asked`);
  if (perPage !== null && perPage !== asked.perPage) return fail(`its pages hold ${perPage} cases, not ${asked.perPage} as asked`);
  if (items.length > asked.perPage) return fail(`it holds ${items.length} cases, more than the ${asked.perPage} asked for`);
  return {
    cases: items,
    total,
    page: asked.page,
    perPage: asked.perPage,
    hasMore: total !== null ? asked.page * asked.perPage < total : items.length === asked.perPage,
    noCases: false,
  };
}

/**
 * GET /forms/{form}/cases: one page of a form's cases, read through the site's list envelope
 * (`listEnvelopeOf(site)`). The platform's 404 is a page without cases; an answer in another envelope is a
 * `ListEnvelopeError` carrying the raw text. `page` and `per_page` are always sent, so the page read is
 * the page asked for. Here rather than in the fetch layer's first-page module: only the inbox lists cases.
 */
export async function listFormCases(
  form: string,
  query: CaseListQuery & { page: number; per_page: number },
  envelope: ListEnvelope,
  signal?: AbortSignal,
): Promise<CaseListPage> {
  // The exact parser loads beside the request, as for a lookup; a script that cannot be fetched is no answer.
  const [answer, parse] = await Promise.all([
    getAnswer(apiBasePath() + formCasesPath(form) + caseListSearch(query), signal),
    import('./exact-json').then(
      (module) => module.parseExactJson,
      () => {
        throw apiErrors.noAnswer('A script of this page could not be loaded from the server.');
      },
    ),
  ]);
  return readCaseListAnswer(answer, envelope, { page: query.page, perPage: query.per_page }, parse);
}
