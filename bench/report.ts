/**
 * One table for the console and the README (Markdown), and the JSON written under bench/results/.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { eventMs, kb, type BudgetCheck } from './budgets';
import type { ActivityFigures } from './activity';
import type { BundleFigures } from './bundle';
import type { CasesFigures } from './cases';
import type { EditorFigures, Timing } from './editor';
import type { FirstVisitFigures } from './first-visit';
import type { HttpFigures, LoadFigures } from './http';
import type { ImportFigures } from './import';
import type { KeystrokeSummary } from './keystrokes';
import type { PeerFigures } from './peer';
import type { SessionFigures } from './sessions';

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
  cases?: CasesFigures;
  bundle?: BundleFigures;
  http?: HttpFigures;
  peer?: PeerFigures;
  importer?: ImportFigures;
  sessions?: SessionFigures;
  activity?: ActivityFigures;
  firstVisit?: FirstVisitFigures;
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

function peerRows(peer: PeerFigures, budgets: readonly BudgetCheck[]): Row[] {
  const area = `Peer, 50 conn. × ${peer.durationS} s × ${peer.rounds} rounds`;
  const rows: Row[] = [[area, 'Case lookup, standalone sandbox, direct', load(peer.direct), '']];
  if (peer.viaNginx) {
    const version = 'version' in peer.nginx ? peer.nginx.version : '';
    rows.push([area, `Through nginx ${version} (1 worker, injects the two headers)`, load(peer.viaNginx), '']);
  } else {
    rows.push([area, 'Through nginx', 'not measured: nginx is not installed', '']);
  }
  rows.push([area, 'Through site-admin (its platform: that sandbox)', load(peer.viaSiteAdmin), '']);
  if (peer.siteAdminToNginx !== undefined) {
    rows.push([
      area,
      'site-admin / nginx throughput; added p50 (site-admin, nginx)',
      `${peer.siteAdminToNginx}; +${peer.siteAdminAddedP50Ms} ms, +${peer.nginxAddedP50Ms} ms`,
      verdict(budgets, 'Proxy vs nginx'),
    ]);
    rows.push([area, 'nginx / direct throughput', `${peer.nginxToDirect}`, '']);
  }
  rows.push([area, 'site-admin / direct throughput', `${peer.siteAdminToDirect}`, '']);
  const cpu = peer.cpuUsPerLookup;
  if (cpu) {
    const nginx = cpu.nginx ? `nginx ${cpu.nginx.proxy} µs (sandbox behind it ${cpu.nginx.sandbox} µs); ` : '';
    rows.push([
      area,
      'CPU per lookup (user + system, /proc)',
      `${nginx}site-admin ${cpu.siteAdmin.proxy} µs (sandbox behind it ${cpu.siteAdmin.sandbox} µs); sandbox direct ${cpu.direct.sandbox} µs`,
      '',
    ]);
  }
  return rows;
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

function sessionRows(sessions: SessionFigures): Row[] {
  const area = `Sessions, 50 conn. × ${sessions.durationS} s × ${sessions.rounds} rounds`;
  const us = (value?: number) => (value === undefined ? 'not run' : `${value} µs CPU per lookup`);
  const { cpuUsPerLookup: cpu } = sessions;
  const rows: Row[] = [
    [area, 'Proxied lookup, local demo (no sign-in), SQLite', us(cpu.demoSqlite), ''],
    [area, 'Proxied lookup with a session checked, SQLite', `${us(cpu.sessionSqlite)} (×${sessions.sessionToDemoSqlite})`, '≤ ×1.10'],
  ];
  if (sessions.sessionToDemoPostgres !== undefined) {
    rows.push([area, 'Proxied lookup, local demo (no sign-in), PostgreSQL', us(cpu.demoPostgres), '']);
    rows.push([
      area,
      'Proxied lookup with a session checked, PostgreSQL',
      `${us(cpu.sessionPostgres)} (×${sessions.sessionToDemoPostgres})`,
      '≤ ×1.10',
    ]);
  } else {
    rows.push([area, 'PostgreSQL', `not run: ${sessions.postgresMissing ?? 'unknown'}`, '']);
  }
  if (sessions.signInPage) {
    rows.push(['Sign-in page', 'JS (gzip) of the sign-in page', kb(sessions.signInPage.page.jsGzip), '≤ 130 KB']);
    rows.push([
      'Sign-in page',
      'JS (gzip) the first page adds after signing in',
      `${kb(sessions.signInPage.firstPageAfter.jsGzip)} (together ${kb(sessions.signInPage.page.jsGzip + sessions.signInPage.firstPageAfter.jsGzip)})`,
      '',
    ]);
  }
  return rows;
}

function activityRows(activity: ActivityFigures): Row[] {
  const rows: Row[] = [];
  const names = { sqlite: 'SQLite', postgres: 'PostgreSQL' } as const;
  for (const engine of ['sqlite', 'postgres'] as const) {
    const cost = activity.cost[engine];
    const area = `Activity record, ${names[engine]}`;
    if (!cost) {
      rows.push([area, 'not run', activity.postgresMissing ?? '', '']);
      continue;
    }
    const pair = (p: { with: number; without: number; ratio: number }) => `${p.without} → ${p.with} µs CPU (×${p.ratio})`;
    rows.push([
      area,
      `Proxied lookup, without → with the record (${activity.rounds} rounds × ${activity.durationS} s)`,
      pair(cost.lookup),
      '≤ ×1.05',
    ]);
    rows.push([area, 'Proxied create, without → with the record', pair(cost.create), '≤ ×1.10']);
    const million = activity.million[engine];
    if (!million) continue;
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
  const { editor, cases, bundle, http, peer, importer, budgets } = results;
  return [
    ...(editor ? editorRows(editor, budgets) : []),
    ...(cases ? casesRows(cases, budgets) : []),
    ...(bundle ? bundleRows(bundle, budgets) : []),
    ...(http ? httpRows(http, budgets) : []),
    ...(peer ? peerRows(peer, budgets) : []),
    ...(importer ? importRows(importer) : []),
    ...(results.sessions ? sessionRows(results.sessions) : []),
    ...(results.activity ? activityRows(results.activity) : []),
    ...(results.firstVisit ? firstVisitRows(results.firstVisit) : []),
    ...results.failures.map((f): Row => [f.benchmark, 'not measured: the benchmark failed', f.error, '']),
    ...(results.buildMs === undefined ? [] : [['Build', 'vite build', `${results.buildMs} ms`, ''] as Row]),
    ['Start-up', 'Spawn → first 200 from /api/health', `${results.startup.medianMs} ms (runs: ${results.startup.runsMs.join(', ')})`, ''],
  ];
}

export function markdownTable(rows: readonly Row[]): string {
  const header: Row = ['Area', 'Figure (median of runs)', 'Measured', 'Budget'];
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
