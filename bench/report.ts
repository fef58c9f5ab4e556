/**
 * One table for the console and the README (Markdown), and the JSON written under bench/results/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { deployedBudgetRows, ENGINE_NAMES, eventMs, kb, type BudgetCheck } from './budgets';
import type { ActivityFigures } from './activity';
import type { BundleFigures } from './bundle';
import type { CasesFigures } from './cases';
import {
  CONFIGURATIONS,
  type Configuration,
  type DeployedFigures,
  type Engine,
  type Kind,
  type TargetFigures,
  type TargetName,
} from './deployed';
import type { EditFigures } from './edit';
import type { EditorFigures, Timing } from './editor';
import type { FirstVisitFigures } from './first-visit';
import type { HttpFigures, LoadFigures } from './http';
import type { ImportFigures } from './import';
import { catalogueRows, type CatalogueFigures } from './catalogue';
import type { InboxFigures } from './inbox';
import { inboxScreenRows } from './inbox-screen';
import type { KeystrokeSummary } from './keystrokes';
import type { SignInPageFigures } from './sessions';

export interface BenchResults {
  date: string;
  machine: {
    cpus: number;
    cpuModel: string;
    memoryGB: number;
    node: string;
    os: string;
    chromium: string;
    /** 1, 5 and 15 minute load averages when the bench started and ended: the machine is shared. */
    loadAverageAtStart: number[];
    loadAverageAtEnd: number[];
  };
  /** The sections that ran (`--only`). */
  sections: string[];
  rounds: number;
  /** Browser sessions that timed out once and were run again. */
  retriedSessions: number;
  /** Undefined when the browser section did not run (nothing was built). */
  buildMs?: number;
  startup: { runsMs: number[]; medianMs: number };
  editor?: EditorFigures;
  /** Correcting a 20 × 25 product: answer → editor, and Review's diff. */
  edit?: EditFigures;
  cases?: CasesFigures;
  bundle?: BundleFigures;
  http?: HttpFigures;
  /** The headline: site-admin as deployed, beside the local demo and nginx, on both engines. */
  deployed?: DeployedFigures;
  importer?: ImportFigures;
  signInPage?: SignInPageFigures;
  activity?: ActivityFigures;
  firstVisit?: FirstVisitFigures;
  /** The case inbox at 20,000 cases: the list's pages, the navigation's counts, the inbox screen. */
  inbox?: InboxFigures;
  /** The Catalogue with 5,000 products: its first screen from the navigation and from a link, a search of every page. */
  catalogue?: CatalogueFigures;
  /** Benchmarks that could not run to the end, and why; their figures are missing above. */
  failures: { benchmark: string; error: string }[];
  budgets: BudgetCheck[];
}

type Row = [area: string, figure: string, measured: string, budget: string];

const verdict = (checks: readonly BudgetCheck[], prefix: string) =>
  checks
    .filter((c) => c.budget.startsWith(prefix))
    .map((c) => `${c.budget.slice(c.budget.indexOf(':') + 2)}: ${c.met ? 'met' : 'missed'}`)
    .join('; ');

/** One keystroke figure beside the bare input's: Event Timing p50 / p95, probe p95, main-thread ms per key. */
const beside = (k: KeystrokeSummary, floor: KeystrokeSummary) =>
  `${eventMs(k.eventP50)} / ${eventMs(k.eventP95)}, probe p95 ${k.paintP95} ms, ${k.taskMsPerKey ?? '?'} ms/key on the main thread ` +
  `(bare input: ${eventMs(floor.eventP95)}, ${floor.paintP95} ms, ${floor.taskMsPerKey ?? '?'} ms/key)`;

/** Every keystroke beside the bare input's floor of the same run: the import grid's cell, and all of it with the CPU slowed. */
function keystrokeFloorRows(editor: EditorFigures, size: string): Row[] {
  const slow = editor.slowCpu;
  const cpu = `CPU ${slow.cpuRate}× slower`;
  return [
    [
      'Import grid, 200 products',
      'Keystroke in an edited cell: Event Timing p50 / p95; probe; main thread',
      beside(editor.importCell, editor.control),
      '',
    ],
    [
      `Editor ${size}, ${cpu}`,
      'Keystroke, option name: Event Timing p50 / p95; probe; main thread',
      beside(slow.optionName, slow.control),
      '',
    ],
    [
      `Editor ${size}, ${cpu}`,
      'Keystroke, price cell: Event Timing p50 / p95; probe; main thread',
      beside(slow.priceCell, slow.control),
      '',
    ],
    [
      `Import grid, ${cpu}`,
      'Keystroke in an edited cell: Event Timing p50 / p95; probe; main thread',
      beside(slow.importCell, slow.control),
      '',
    ],
  ];
}

function editorRows(editor: EditorFigures, checks: readonly BudgetCheck[]): Row[] {
  const small = editor.sizes[0];
  const large = editor.sizes[editor.sizes.length - 1];
  if (!small || !large) return [];
  const r = editor.ratioLargestToSmallest;
  const timing = (figure: string, key: Timing, unit = 'ms', budget = ''): Row => [
    `Editor ${large.size}`,
    figure,
    `${large[key]} ${unit} (${small.size}: ${small[key]} ${unit}; ${r[key]}×)`,
    budget,
  ];
  const keys = (label: string, field: 'optionName' | 'priceCell'): Row[] => {
    const l: KeystrokeSummary = large[field];
    const s: KeystrokeSummary = small[field];
    return [
      [
        `Editor ${large.size}`,
        `Keystroke, ${label}: p50 / p95, keydown → next paint (probe)`,
        `${l.paintP50} / ${l.paintP95} ms (${small.size}: ${s.paintP50} / ${s.paintP95} ms; p95 ${r[`${field}.paintP95`]}×)`,
        verdict(checks, `Keystroke p95, ${label}: `),
      ],
      [
        `Editor ${large.size}`,
        `Keystroke, ${label}: p50 / p95, Event Timing duration`,
        `${eventMs(l.eventP50)} / ${eventMs(l.eventP95)} (${small.size}: ${eventMs(s.eventP50)} / ${eventMs(s.eventP95)})`,
        verdict(checks, `Keystroke p95, ${label}, `),
      ],
    ];
  };
  const options = large.size.split('×')[1] ?? '';
  return [
    timing('Attributes step: click Restore → summaries painted', 'attributesPaintMs', 'ms', verdict(checks, 'Attributes step')),
    ...keys('option name', 'optionName'),
    ...keys('price cell', 'priceCell'),
    [
      'Control',
      'Keystroke floor: bare <input>, no app: p50 / p95, probe; Event Timing',
      `${editor.control.paintP50} / ${editor.control.paintP95} ms; ${eventMs(editor.control.eventP50)} / ${eventMs(editor.control.eventP95)}`,
      '',
    ],
    ...keystrokeFloorRows(editor, large.size),
    timing(`Expand an attribute (${options} option rows)`, 'expandAttributeMs'),
    timing('Expand an option (fields and price grid)', 'expandOptionMs'),
    timing('Review step: click Next → painted', 'reviewMs'),
    timing('JS heap after GC, product built', 'heapMB', 'MB'),
  ];
}

const load = (f: LoadFigures) =>
  `${f.requestsPerSec.toLocaleString('en')} req/s, p50 ${f.p50Ms} ms, p99 ${f.p99Ms} ms, ${f.non2xx} non-2xx, ${f.errors} errors`;

function casesRows(cases: CasesFigures, checks: readonly BudgetCheck[]): Row[] {
  const area = `Cases, ${cases.fields} fields`;
  const { filter, control } = cases;
  return [
    [
      area,
      'Answer received (responseEnd) → first screen of rows painted',
      `${cases.firstScreenMs} ms (from Enter: ${cases.enterToFirstScreenMs} ms)`,
      verdict(checks, 'Cases first screen'),
    ],
    [area, `Enter in lookup → all ${cases.rows} rows available, painted (via proxy)`, `${cases.allRowsMs} ms`, ''],
    [
      area,
      'Longest main-thread task, Enter → settled (Long Tasks API)',
      `${cases.longestTaskMs} ms`,
      verdict(checks, 'Cases longest task'),
    ],
    [
      area,
      'Filter keystroke: p50 / p95, keydown → next paint (probe)',
      `${filter.paintP50} / ${filter.paintP95} ms (Control: ${control.paintP50} / ${control.paintP95} ms)`,
      verdict(checks, 'Cases filter keystroke p95, probe'),
    ],
    [
      area,
      'Filter keystroke: p50 / p95, Event Timing duration',
      `${eventMs(filter.eventP50)} / ${eventMs(filter.eventP95)} (Control: ${eventMs(control.eventP50)} / ${eventMs(control.eventP95)})`,
      verdict(checks, 'Cases filter keystroke p95, Event Timing'),
    ],
    [area, 'Longest main-thread task while filtering', `${cases.filterLongestTaskMs} ms`, ''],
  ];
}

/** Scripts smaller than this are summed in one row rather than listed. */
const LISTED_SCRIPT_BYTES = 1000;

/** Each first-page script: its gzip size, its share of the first page's JS, and its main packages. */
function firstPageScriptRows(firstPage: BundleFigures['firstPage']): Row[] {
  const scripts = firstPage.files.filter((f) => f.file.endsWith('.js')).sort((a, b) => b.gzip - a.gzip);
  const share = (gzip: number) => `${Math.round((100 * gzip) / Math.max(1, firstPage.jsGzip))} %`;
  const listed = scripts.filter((f) => f.gzip >= LISTED_SCRIPT_BYTES);
  const rest = scripts.filter((f) => f.gzip < LISTED_SCRIPT_BYTES);
  const rows = listed.map((f): Row => {
    const main = (f.packages ?? []).filter((p) => p.share >= 0.05).slice(0, 4);
    const made = main.map((p) => `${p.name} ${Math.round(p.share * 100)} %`).join(', ');
    return [
      'Bundle (gzip)',
      `First page, ${f.file.replace(/^assets\//, '')}: gzip, share; its packages`,
      `${kb(f.gzip)}, ${share(f.gzip)}${made ? `: ${made}` : ''}`,
      '',
    ];
  });
  if (rest.length > 0) {
    const gzip = rest.reduce((n, f) => n + f.gzip, 0);
    rows.push([
      'Bundle (gzip)',
      `First page, ${rest.length} more scripts under ${kb(LISTED_SCRIPT_BYTES)} each: gzip, share`,
      `${kb(gzip)}, ${share(gzip)}`,
      '',
    ]);
  }
  return rows;
}

function bundleRows(bundle: BundleFigures, budgets: readonly BudgetCheck[]): Row[] {
  const sets = (js: number, css: number) => `JS ${kb(js)}, CSS ${kb(css)}`;
  return [
    ['Bundle (gzip)', 'First page (Cases)', sets(bundle.firstPage.jsGzip, bundle.firstPage.cssGzip), verdict(budgets, 'First page JS')],
    ...firstPageScriptRows(bundle.firstPage),
    ['Bundle (gzip)', 'Opening the editor adds', sets(bundle.editorAdds.jsGzip, bundle.editorAdds.cssGzip), ''],
    ['Bundle (gzip)', 'Total, first page + editor', sets(bundle.total.jsGzip, bundle.total.cssGzip), ''],
  ];
}

function httpRows(http: HttpFigures, budgets: readonly BudgetCheck[]): Row[] {
  return [
    [
      'Sandbox, 50 conn. × 10 s',
      'Case lookup',
      load(http.caseLookup),
      [verdict(budgets, 'Sandbox case lookup'), verdict(budgets, 'Sandbox:')].join('; '),
    ],
    ['Sandbox, 50 conn. × 10 s', 'Create (unique slugs)', load(http.create), verdict(budgets, 'Sandbox create')],
    ['Proxy, 50 conn. × 10 s', 'Case lookup through the proxy', load(http.proxyCaseLookup), ''],
    [
      'Proxy, 50 conn. × 10 s',
      'Proxy / direct throughput; added p50',
      `${http.proxyThroughputRatio}; +${http.proxyAddedP50Ms} ms`,
      verdict(budgets, 'Proxy throughput'),
    ],
  ];
}

/** A longest task as the browser reports it: none under 50 ms. */
const longest = (median: number, max: number, rounds: number) =>
  max === 0 ? `none over 50 ms in ${rounds} of ${rounds} rounds` : `${median} ms (longest of ${rounds} rounds: ${max} ms)`;

function importRows(figures: ImportFigures): Row[] {
  const area = `Import, ${figures.rows.toLocaleString('en')} rows`;
  return [
    [area, 'Worker: read (encoding + papaparse) + check every product', `${figures.parseMs} + ${figures.checkMs} ms`, 'under 1 s'],
    [
      area,
      'Longest main-thread task, file chosen → grid painted',
      longest(figures.longestTaskMs, figures.longestTaskMaxMs, figures.runs),
      'at most 50 ms',
    ],
    [
      area,
      `The same rows as an Excel workbook (${figures.workbookKB} KB): read in the worker (SheetJS); longest main-thread task`,
      `${figures.workbookParseMs} ms (CSV: ${figures.parseMs} ms); ${longest(figures.workbookLongestTaskMs, figures.workbookLongestTaskMaxMs, figures.runs)}`,
      'at most 50 ms',
    ],
    [
      area,
      'Grid scrolling a screenful per frame: fps; p95 frame',
      `${figures.scrollFps} fps; ${figures.scrollFrameP95Ms} ms`,
      'display rate',
    ],
    [area, 'JS heap after GC, file loaded and checked', `${figures.heapMB} MB`, ''],
    [
      `Import updates, ${figures.updates.rows.toLocaleString('en')} rows`,
      `${figures.updates.updates.toLocaleString('en')} products of the site checked, each row's diff included (${figures.updates.changes.toLocaleString('en')} changes; the worker's check, in Node): wall; CPU`,
      `${figures.updates.wallMs} ms; ${figures.updates.cpuMs} ms`,
      'within 2 s',
    ],
    ...figures.creates.map((c): Row => [
      `Import creates, ${c.concurrency} at a time`,
      `${c.products} products via proxy → sandbox: products/s; time waiting on requests / in site-admin`,
      `${c.perSecond}/s; ${Math.round(c.waitingShare * 100)} % / ${Math.round(c.siteAdminShare * 100)} %`,
      '',
    ]),
    ...(figures.share ?? []).map((c): Row => [
      `Import's own share, ${c.concurrency} at a time`,
      `${c.products} products, platform of fixed latency: products/s (its ceiling); platform / request / queued in the browser, p50; site-admin's share`,
      `${c.perSecond}/s (${c.ceilingPerSecond}/s); ${c.platformMs} / ${c.requestMs} / ${c.stalledMs} ms; ${Math.round(c.siteAdminShare * 100)} %`,
      c.concurrency === 16 ? 'at most 30 %' : '',
    ]),
  ];
}

function signInPageRows(signInPage: SignInPageFigures): Row[] {
  return [
    ['Sign-in page', 'JS (gzip) of the sign-in page', kb(signInPage.page.jsGzip), '≤ 130 KB'],
    [
      'Sign-in page',
      'JS (gzip) the first page adds after signing in',
      `${kb(signInPage.firstPageAfter.jsGzip)} (together ${kb(signInPage.page.jsGzip + signInPage.firstPageAfter.jsGzip)})`,
      '',
    ],
  ];
}

function activityRows(activity: ActivityFigures): Row[] {
  const rows: Row[] = [];
  const names = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;
  for (const engine of ['sqlite', 'postgres'] as const) {
    const area = `Activity record, ${names[engine]}`;
    const million = activity.million[engine];
    if (!million) {
      rows.push([area, 'not run', activity.postgresMissing ?? '', '']);
      continue;
    }
    const worst = [...million.lists].sort((a, b) => b.p95Ms - a.p95Ms)[0];
    rows.push([
      area,
      `Activity list at 1,000,000 entries: p95 of the slowest of ${million.lists.length} queries`,
      worst ? `${worst.p95Ms} ms (${worst.query})` : 'none',
      '≤ 100 ms',
    ]);
    rows.push([
      area,
      'The chain’s check the page asks for, at 1,000,000: the first after a start; the next three',
      `${million.firstCheckMs} ms; ${million.verifyMs.join(', ')} ms`,
      '',
    ]);
    for (const e of million.exports) {
      rows.push([
        area,
        `Export of 1,000,000 as ${e.format}: time; server RSS before → peak → after`,
        `${e.seconds} s, ${e.megabytes} MB; ${e.rssBeforeMB} → ${e.rssPeakMB} → ${e.rssAfterMB} MB`,
        'flat',
      ]);
    }
  }
  return rows;
}

const CONFIGURATION_NAMES: Record<Configuration, string> = {
  demo: 'site-admin, local demo (no sign-in)',
  deployed: 'site-admin, deployed (signed in, record on)',
  withoutRecord: 'site-admin, signed in, without the record (bench only)',
};

/** A target's figures for one kind of request, as the headline table's two cells. */
function headlineCells(figures: TargetFigures | undefined): [string, string] {
  if (!figures) return ['not run', ''];
  const { load: f, cpuUs, toNginx } = figures;
  const failures = f.non2xx + f.errors > 0 ? `, ${f.non2xx} non-2xx, ${f.errors} errors` : '';
  // nginx's own ratios (1) are left out.
  const self = toNginx?.cpu === 1 && toNginx.throughput === 1;
  const throughput = `${f.requestsPerSec.toLocaleString('en')}/s${toNginx && !self ? ` (${toNginx.throughput})` : ''}${failures}`;
  const proxy = cpuUs.proxy === undefined ? 'no proxy' : `${cpuUs.proxy}${toNginx?.cpu !== undefined && !self ? ` (${toNginx.cpu}×)` : ''}`;
  return [throughput, `${proxy}; ${cpuUs.sandbox}${cpuUs.postgres === undefined ? '' : `; ${cpuUs.postgres}`}`];
}

/**
 * The headline of a run: each configuration's throughput and CPU per lookup and per create beside
 * nginx's, then the budgets judged on each engine. Markdown, as docs/performance.md keeps it.
 */
export function headlineTables(deployed: DeployedFigures): string {
  const version = 'version' in deployed.nginx ? deployed.nginx.version : '';
  const rows: { engine: string; name: string; target: TargetName }[] = [
    { engine: '', name: 'sandbox direct', target: 'direct' },
    { engine: '', name: `${version || 'nginx'} (1 worker, injects the two headers)`, target: 'nginx' },
  ];
  for (const engine of deployed.engines) {
    for (const configuration of CONFIGURATIONS) {
      rows.push({ engine: ENGINE_NAMES[engine], name: CONFIGURATION_NAMES[configuration], target: `${configuration}-${engine}` });
    }
  }
  const cells = (kind: Kind, target: TargetName) => headlineCells(deployed[kind][target]);
  const figures = markdownTable(
    rows.map(({ engine, name, target }) => [engine, name, ...cells('lookup', target), ...cells('create', target)]),
    [
      'Engine',
      'In front of the sandbox',
      'Lookups/s (of nginx’s)',
      'CPU µs per lookup: proxy (× nginx’s); sandbox; PostgreSQL',
      'Creates/s (of nginx’s)',
      'CPU µs per create: proxy (× nginx’s); sandbox; PostgreSQL',
    ],
  );
  const budgets = markdownTable(
    deployedBudgetRows(deployed).map(({ figure, limit, byEngine }) => [
      `${figure} ${limit}`,
      ...deployed.engines.map((engine) => {
        const verdict = byEngine[engine];
        return verdict ? `${verdict.measured}: ${verdict.met ? 'met' : 'MISSED'}` : 'not measured';
      }),
    ]),
    ['Budget (same run)', ...deployed.engines.map((engine) => ENGINE_NAMES[engine])],
  );
  const sessionCreates = deployed.engines
    .map((engine) => `${ENGINE_NAMES[engine]} ×${deployed.ratios[engine]?.sessionCreate ?? Number.NaN}`)
    .join(', ');
  const withPostgres = deployed.ratios.postgres?.sessionLookupWithPostgres;
  const sessionWithPostgres =
    withPostgres === undefined ? '' : ` With PostgreSQL's own CPU added on both sides, its check on a lookup is ×${withPostgres}.`;
  const missing = [
    'missing' in deployed.nginx ? `nginx left out: ${deployed.nginx.missing}.` : '',
    deployed.postgresMissing ? `PostgreSQL left out: ${deployed.postgresMissing}.` : '',
  ].filter(Boolean);
  return [
    `${deployed.connections} connections, ${deployed.durationS} s per target and kind, ${deployed.rounds} interleaved rounds; medians.`,
    '',
    figures,
    '',
    budgets,
    '',
    `The session's check on a create (deployed / demo, CPU): ${sessionCreates}.${sessionWithPostgres}${missing.length > 0 ? ` ${missing.join(' ')}` : ''}`,
  ].join('\n');
}

/** The deployed comparison in the table of every figure: each budget on each engine, a row. */
function deployedRows(deployed: DeployedFigures): Row[] {
  const area = (engine: Engine) => `As deployed, ${ENGINE_NAMES[engine]}`;
  const rows: Row[] = [];
  for (const engine of deployed.engines) {
    const lookup = deployed.lookup[`deployed-${engine}`];
    const create = deployed.create[`deployed-${engine}`];
    if (!lookup || !create) continue;
    const cpu = (f: TargetFigures) => `${f.cpuUs.proxy ?? '?'} µs (sandbox ${f.cpuUs.sandbox} µs)`;
    rows.push([area(engine), 'Signed in, record on: lookups/s; CPU per lookup', `${lookup.load.requestsPerSec}/s; ${cpu(lookup)}`, '']);
    rows.push([area(engine), 'Signed in, record on: creates/s; CPU per create', `${create.load.requestsPerSec}/s; ${cpu(create)}`, '']);
  }
  for (const { figure, limit, byEngine } of deployedBudgetRows(deployed)) {
    for (const engine of deployed.engines) {
      const verdict = byEngine[engine];
      if (verdict) rows.push([area(engine), figure, verdict.measured, `${limit}: ${verdict.met ? 'met' : 'missed'}`]);
    }
  }
  return rows;
}

function inboxRows(inbox: InboxFigures): Row[] {
  const area = `Inbox, ${inbox.cases.toLocaleString('en')} cases`;
  const cpu = (us: number | undefined) => (us === undefined || !Number.isFinite(us) ? '?' : `${us.toLocaleString('en')} µs`);
  const rows: Row[] = inbox.lists.map((list): Row => [
    area,
    `Pages of ${inbox.perPage}, ${list.kind} (${Math.round(list.bytes / 1024)} KB): p50 / p95 through the server (signed in, record on) vs the sandbox direct; CPU per request`,
    `${list.server.p50Ms} / ${list.server.p95Ms} ms vs ${list.direct.p50Ms} / ${list.direct.p95Ms} ms (×${list.p50Ratio} at p50); ` +
      `server ${cpu(list.server.cpuUs.server)} + sandbox ${cpu(list.server.cpuUs.sandbox)} vs sandbox ${cpu(list.direct.cpuUs.sandbox)}; ${list.requests} requests each`,
    '',
  ]);
  const counts = inbox.counts;
  if ('notMeasured' in counts)
    rows.push([
      area,
      'The navigation’s counts: list requests per site and form per poll interval',
      `not measured: ${counts.notMeasured}`,
      'one',
    ]);
  else {
    rows.push([
      area,
      `The navigation’s counts, ${counts.people} people asking every ${counts.askEveryMs / 1000} s for ${counts.seconds} s: list requests per site and form per ${counts.intervalMs / 1000} s; the shortest gap between two`,
      `${counts.perSiteForm.map((f) => `${f.site}/${f.form}: ${f.perInterval} (${f.requests} in all; ${f.shortestGapMs === null ? 'one read' : `${f.shortestGapMs} ms`})`).join('; ')}; ` +
        `counts answered ${counts.countsAnswered} of ${counts.countsAsked}; other requests to the platform ${counts.otherRequests}`,
      'one',
    ]);
  }
  const screen = inbox.screen;
  if ('notMeasured' in screen) {
    rows.push([
      area,
      'In Chromium: a page of 500 on screen after its answer; longest task; scrolling fps',
      `not yet measured: ${screen.notMeasured}`,
      '150 ms; 50 ms; display rate',
    ]);
  } else {
    rows.push(...inboxScreenRows(area, screen));
  }
  return rows;
}

function firstVisitRows(visit: FirstVisitFigures): Row[] {
  const area = `First visit, Slow 4G (${visit.network.latency} ms, ${visit.network.downloadThroughput / 1000} kB/s down), ${visit.rounds} rounds`;
  const goal = (ms: number, limit: number) => `≤ ${limit / 1000} s: ${ms <= limit ? 'met' : 'missed'}`;
  const runs = (key: 'signInReadyMs' | 'signInToCaseMs' | 'repeatVisitMs') => visit.runs.map((run) => run[key]).join(', ');
  return [
    [
      area,
      'Address entered → sign-in page ready (cold cache)',
      `${visit.signInReadyMs} ms (runs: ${runs('signInReadyMs')})`,
      goal(visit.signInReadyMs, 2000),
    ],
    [
      area,
      'Sign in pressed → case 48217 on screen',
      `${visit.signInToCaseMs} ms (runs: ${runs('signInToCaseMs')})`,
      goal(visit.signInToCaseMs, 2000),
    ],
    [
      area,
      'Repeat visit (warm cache) → case on screen',
      `${visit.repeatVisitMs} ms (runs: ${runs('repeatVisitMs')})`,
      goal(visit.repeatVisitMs, 500),
    ],
  ];
}

export function resultRows(results: BenchResults): Row[] {
  const { editor, cases, bundle, http, deployed, importer, budgets } = results;
  return [
    ...(deployed ? deployedRows(deployed) : []),
    ...(editor ? editorRows(editor, budgets) : []),
    ...(cases ? casesRows(cases, budgets) : []),
    ...(bundle ? bundleRows(bundle, budgets) : []),
    ...(http ? httpRows(http, budgets) : []),
    ...(importer ? importRows(importer) : []),
    ...(results.signInPage ? signInPageRows(results.signInPage) : []),
    ...(results.activity ? activityRows(results.activity) : []),
    ...(results.firstVisit ? firstVisitRows(results.firstVisit) : []),
    ...(results.inbox ? inboxRows(results.inbox) : []),
    ...(results.catalogue ? catalogueRows(results.catalogue) : []),
    ...results.failures.map((f): Row => [f.benchmark, 'not measured: the benchmark failed', f.error, '']),
    ...(results.buildMs === undefined ? [] : [['Build', 'vite build', `${results.buildMs} ms`, ''] as Row]),
    ['Start-up', 'Spawn → first 200 from /api/health', `${results.startup.medianMs} ms (runs: ${results.startup.runsMs.join(', ')})`, ''],
  ];
}

const HEADER: Row = ['Area', 'Figure (median of runs)', 'Measured', 'Budget'];

export function markdownTable(rows: readonly (readonly string[])[], header: readonly string[] = HEADER): string {
  // A pipe or a line break (e.g. in an error message) would break the table.
  const clean = (row: readonly string[]) => row.map((cell) => cell.replace(/\|/g, '\\|').replace(/\s*\n\s*/g, ' '));
  const all = [header, ...rows].map(clean);
  const widths = header.map((_, i) => Math.max(...all.map((row) => row[i]?.length ?? 0)));
  const line = (row: readonly string[]) => `| ${row.map((cell, i) => cell.padEnd(widths[i] ?? 0)).join(' | ')} |`;
  const [head = [], ...body] = all;
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...body.map(line)].join('\n');
}

/** Writes bench/results/<timestamp>.json and latest.json; answers the first's path. */
export function writeResults(results: BenchResults): string {
  const dir = join(process.cwd(), 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  const json = `${JSON.stringify(results, null, 2)}\n`;
  const file = join(dir, `${results.date.replace(/[:.]/g, '-')}.json`);
  writeFileSync(file, json);
  writeFileSync(join(dir, 'latest.json'), json);
  return file;
}
