/**
 * The export of a form's filtered list of cases as a file (INBOX_PATHS.export): `GET
 * /api/inbox/:site/:form/export?format=csv|xlsx` with the list's own query (`sort_type`, `sort_order`,
 * `filter`, checked by the contract's rules as the allowlist checks a list) and `team` (the team's filters,
 * which the platform cannot apply).
 *
 * - Exporting is personal data in bulk: it needs the `export` capability on the site (owners and editors by
 *   default, support not; owners may adjust it per role and site). Without it: 403, and the platform is not
 *   asked anything. Bad parameters: 400 in the spec's shape, and the platform is not asked anything.
 * - The server reads the platform's pages itself (500 cases a page, the documented most) until the list
 *   ends, applies the team's filters, and keeps the rows; a list of more than EXPORT_MAX_CASES is refused
 *   (413) as soon as it shows (the first page's total, or the cases read). A browser that goes away stops
 *   the reading after the page under way.
 * - The whole export is one entry of the activity record (`cases.export`: site, form, format, filter, sort,
 *   team filters, the count and every case id exported, never their content), written before the first
 *   byte of the file; when it cannot be written, no file (503).
 * - Then the file, streamed with the socket's back-pressure: CSV (UTF-8 with a BOM, formula-like cells made
 *   inert) or an Excel workbook. The rows are held in memory until the entry is written, since the entry
 *   names every case: a few tens of megabytes at the bound.
 */
import type { ServerResponse } from 'node:http';
import { capabilitiesOfAsker, may, refusalMessage } from '../../src/contract/access';
import { checkCaseListQuery, formIdentifierViolations, type CaseListQuery } from '../../src/contract/case-list';
import {
  EXPORT_FORMATS,
  INBOX_PATHS,
  isNewTo,
  NEW_WINDOW_MS,
  TEAM_FILTERS,
  type ExportFormat,
  type TeamFilter,
} from '../../src/contract/case-work';
import type { ErrorDetail } from '../../src/contract/site-api';
import type { SiteInfo } from '../../src/contract/site-info';
import { sendError } from '../answers';
import type { ActivityStore } from '../activity/activity-store';
import { shortUserAgent } from '../activity/record-site-calls';
import type { AppDatabase } from '../db/open';
import { actorOf } from '../identity';
import type { Endpoint } from '../own-api';
import type { PlatformReader } from '../platform-reader';
import { drainOrClose } from '../file-answers';
import { caseIdOf, receivedAtMs } from '../../src/contract/case-list-items';
import { csvChunk, EXPORT_CONTENT_TYPES, exportFileName, ExportTable, UTF8_BOM, writeWorkbook } from './case-export-file';
import { createCaseWorkStore, type CaseWorkStore } from './case-work-store';

/** The most cases one export reads from the platform: a bound on its time, its memory and its record entry. */
export const EXPORT_MAX_CASES = 100_000;
/** Cases asked of the platform per page: the most it documents. */
const EXPORT_PAGE_SIZE = 500;
/** Rows of CSV written at a time. */
const CSV_ROWS_AT_ONCE = 500;

export interface ExportQuery {
  format: ExportFormat;
  team: TeamFilter[];
  list: Pick<CaseListQuery, 'sort_type' | 'sort_order' | 'filter'>;
}

const isFormat = (value: string): value is ExportFormat => EXPORT_FORMATS.some((format) => format === value);
const isTeamFilter = (value: string): value is TeamFilter => TEAM_FILTERS.some((filter) => filter === value);

/**
 * An export's query (the raw query string, without `?`): `format` and `team` of its own, the rest by the
 * list's rules, but for `per_page` and `page` (the export reads every page itself).
 */
export function checkExportQuery(rawQuery: string): { ok: true; query: ExportQuery } | { ok: false; details: ErrorDetail[] } {
  const details: ErrorDetail[] = [];
  const rest: string[] = [];
  const own = new Map<'format' | 'team', string>();
  for (const part of rawQuery === '' ? [] : rawQuery.split('&')) {
    const equals = part.indexOf('=');
    const name = equals < 0 ? part : part.slice(0, equals);
    if (name !== 'format' && name !== 'team') {
      if (name === 'per_page' || name === 'page') {
        details.push({ field: name, message: 'is not taken by an export, which reads every page of the list itself' });
      } else rest.push(part);
      continue;
    }
    let value: string;
    try {
      value = decodeURIComponent(part.slice(equals + 1).replace(/\+/g, ' '));
    } catch {
      details.push({ field: name, message: 'is not written in URL encoding' });
      continue;
    }
    if (own.has(name)) details.push({ field: name, message: 'is given more than once' });
    else own.set(name, equals < 0 ? '' : value);
  }
  const format = own.get('format') ?? 'csv';
  if (!isFormat(format)) details.push({ field: 'format', message: `must be one of ${EXPORT_FORMATS.join(', ')}` });
  const team: TeamFilter[] = [];
  for (const item of (own.get('team') ?? '').split(',')) {
    const filter = item.trim();
    if (filter === '') continue;
    if (!isTeamFilter(filter)) {
      details.push({ field: 'team', message: `has "${filter.slice(0, 40)}", which is not one of ${TEAM_FILTERS.join(', ')}` });
    } else if (!team.includes(filter)) team.push(filter);
  }
  const list = checkCaseListQuery(rest.join('&'));
  if (!list.ok) details.push(...list.details);
  if (details.length > 0 || !list.ok || !isFormat(format)) return { ok: false, details };
  const { sort_type, sort_order, filter } = list.query;
  return { ok: true, query: { format, team, list: { sort_type, sort_order, filter } } };
}

/** Writes `chunk`, waiting while the socket's buffer is full; false once the browser has gone. */
async function write(res: ServerResponse, chunk: string): Promise<boolean> {
  if (res.destroyed) return false;
  if (!res.write(chunk)) await drainOrClose(res);
  return !res.destroyed;
}

/** Waits while the socket's buffer is full (the workbook's writer writes on its own); false once the browser has gone. */
async function drained(res: ServerResponse): Promise<boolean> {
  if (res.destroyed) return false;
  if (res.writableNeedDrain) await drainOrClose(res);
  return !res.destroyed;
}

/** What reading a list for an export came to. */
type ListReading =
  | { kind: 'rows'; table: ExportTable; ids: string[]; read: number }
  | { kind: 'gone' }
  | { kind: 'failed'; page: number; reason: string }
  | { kind: 'too-many'; count: number };

/**
 * Reads every page of the list from the platform, 500 at a time, keeping the cases that pass the team's
 * filters as rows. Stops when the list ends, when it holds more than EXPORT_MAX_CASES, when a page fails,
 * or when `gone` says the browser left (after the page under way).
 */
async function readList(options: {
  reader: PlatformReader;
  store: CaseWorkStore;
  siteId: string;
  form: string;
  list: ExportQuery['list'];
  team: readonly TeamFilter[];
  /** The asker: a person's id, or 'demo'. */
  personKey: string;
  labels: Readonly<Record<string, string>> | undefined;
  now: () => number;
  gone: () => boolean;
}): Promise<ListReading> {
  const { reader, store, siteId, form, list, team, personKey } = options;
  const [work, seen, since] = await Promise.all([
    store.workOfForm(siteId, form),
    team.includes('new') ? store.seenBy(siteId, form, personKey) : Promise.resolve(new Set<string>()),
    team.includes('new') ? store.newSince(siteId, form, personKey) : Promise.resolve(undefined),
  ]);
  // Someone who never opened the form's inbox: their "new" would begin a week back, as on opening it now.
  const newSince = since ?? options.now() - NEW_WINDOW_MS;
  const table = new ExportTable(options.labels);
  const ids: string[] = [];
  const met = new Set<string>();
  let read = 0;
  for (let page = 1; ; page += 1) {
    const reading = await reader.caseList(form, { ...list, per_page: EXPORT_PAGE_SIZE, page });
    if (options.gone()) return { kind: 'gone' };
    if (reading.kind === 'empty') break;
    if (reading.kind === 'failed') return { kind: 'failed', page, reason: reading.reason };
    const { items, total } = reading.content;
    if (page === 1 && total !== null && total > EXPORT_MAX_CASES) return { kind: 'too-many', count: total };
    for (const record of items) {
      read += 1;
      const id = caseIdOf(record) ?? '';
      // A case that moved to the next page while the pages were read (a new one arrived) is met twice.
      if (id !== '' && met.has(id)) continue;
      if (id !== '') met.add(id);
      const done = work.get(id);
      const status = done?.status ?? 'new';
      if (team.includes('mine') && done?.assigneeId !== personKey) continue;
      if (team.includes('open') && status === 'done') continue;
      if (team.includes('new') && !isNewTo(receivedAtMs(record) ?? 0, seen.has(id), newSince)) continue;
      table.add(record, { status, assignee: done?.assigneeId ? (done.assigneeName ?? done.assigneeId) : null });
      ids.push(id);
    }
    if (read > EXPORT_MAX_CASES) return { kind: 'too-many', count: read };
    if (items.length < EXPORT_PAGE_SIZE || (total !== null && page * EXPORT_PAGE_SIZE >= total)) break;
  }
  return { kind: 'rows', table, ids, read };
}

export interface CaseExportDeps {
  sites: readonly SiteInfo[];
  platformReaders: ReadonlyMap<string, PlatformReader>;
  database: AppDatabase;
  activity: ActivityStore;
  now: () => number;
}

export function caseExportEndpoints(deps: CaseExportDeps): Endpoint[] {
  const { platformReaders, activity, now } = deps;
  const sites = new Map(deps.sites.map((site) => [site.id, site]));
  const store = createCaseWorkStore(deps.database);

  return [
    {
      method: 'GET',
      path: INBOX_PATHS.export,
      handle: async ({ request, who, params }) => {
        const { req, res } = request;
        const siteId = params.site ?? '';
        const form = params.form ?? '';
        const site = sites.get(siteId);
        const reader = platformReaders.get(siteId);
        if (!site || !reader) {
          sendError(res, 404, `There is no site “${siteId.slice(0, 80)}” on this server.`);
          return;
        }
        if (!may(who, siteId, 'export')) {
          sendError(res, 403, refusalMessage(site.name, capabilitiesOfAsker(who, siteId), 'export'));
          return;
        }
        // A GET that reads every page of the platform and is recorded in the person's name: never started
        // by another site's link or image (the browser says where a request comes from).
        if (req.headers['sec-fetch-site'] === 'cross-site') {
          sendError(res, 403, 'An export is started from site-admin’s own pages only.');
          return;
        }
        const formProblems = formIdentifierViolations(form);
        const queryAt = request.url.indexOf('?');
        const checked = checkExportQuery(queryAt < 0 ? '' : request.url.slice(queryAt + 1));
        if (formProblems.length > 0 || !checked.ok) {
          sendError(res, 400, 'This export cannot be made: its form or its parameters are not well formed.', [
            ...formProblems,
            ...(checked.ok ? [] : checked.details),
          ]);
          return;
        }
        const { format, team, list } = checked.query;
        const profileForm = site.forms?.[form];
        const fileName = exportFileName(profileForm?.name, form, format, now());
        const headers = {
          'content-type': EXPORT_CONTENT_TYPES[format],
          'content-disposition': `attachment; filename="${fileName}"`,
          'cache-control': 'no-store',
        };
        if (request.method === 'HEAD') {
          res.writeHead(200, headers);
          res.end();
          return;
        }

        let gone = false;
        res.once('close', () => {
          gone = true;
        });
        const personKey = who.kind === 'person' ? who.id : 'demo';
        const outcome = await readList({
          reader,
          store,
          siteId,
          form,
          list,
          team,
          personKey,
          labels: profileForm?.fields,
          now,
          gone: () => gone,
        });
        if (outcome.kind === 'gone') return;
        if (outcome.kind === 'failed') {
          sendError(
            res,
            502,
            `The platform’s list of form ${form} could not be read (page ${outcome.page}): ${outcome.reason}. Nothing was exported.`,
          );
          return;
        }
        if (outcome.kind === 'too-many') {
          const count =
            outcome.count > EXPORT_MAX_CASES
              ? `${outcome.count.toLocaleString('en')} cases`
              : `more than ${EXPORT_MAX_CASES.toLocaleString('en')} cases`;
          sendError(
            res,
            413,
            `This list holds ${count}; an export takes at most ${EXPORT_MAX_CASES.toLocaleString('en')}. Narrow it with a filter (a received date range, a field) and export the parts.`,
          );
          return;
        }
        const { table, ids, read } = outcome;

        // The record first: nobody takes cases away unrecorded.
        try {
          await activity.append({
            at: now(),
            actor: actorOf(who),
            siteId,
            action: 'cases.export',
            target: { form, name: profileForm?.name ?? null },
            outcome: 'exported',
            address: req.socket.remoteAddress ?? null,
            userAgent: shortUserAgent(req.headers['user-agent']),
            detail: {
              format,
              filter: list.filter ?? null,
              sort: list.sort_type ? { type: list.sort_type, order: list.sort_order ?? null } : null,
              team,
              count: ids.length,
              read,
              cases: ids,
            },
          });
        } catch (error) {
          console.error('site-admin: the activity record could not take an export', error);
          sendError(res, 503, 'The activity record could not take this export, so no file was made. Try again in a moment.');
          return;
        }
        if (gone) return;

        res.writeHead(200, headers);
        if (format === 'csv') {
          if (!(await write(res, `${UTF8_BOM}${csvChunk([table.header()])}`))) return;
          for (let i = 0; i < table.rows.length; i += CSV_ROWS_AT_ONCE) {
            const chunk = csvChunk(table.rows.slice(i, i + CSV_ROWS_AT_ONCE).map((row) => table.cells(row)));
            if (!(await write(res, chunk))) return;
          }
          res.end();
          return;
        }
        await writeWorkbook(res, table, profileForm?.name ?? `Form ${form}`, () => drained(res));
      },
    },
  ];
}
