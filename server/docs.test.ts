/**
 * Facts that live in code, held to the pages that state them: the settings table of docs/configuration.md
 * to server/config.ts (and config.ts to the variables the server reads), and the limits tables of docs/ to
 * the contract's rules. Adding or changing a setting or a limit without its documentation fails here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import * as identifiers from '../src/contract/identifiers';
import * as rules from '../src/contract/rules';
import { DATABASE_FILE, loadConfig, SETTINGS, type SettingName } from './config';
import { LOOPBACK_HOSTS } from './hosts';

const ROOT = fileURLToPath(new URL('../', import.meta.url));

/** Every file under `dir` (relative to the repository), recursively, whose name passes `keep`. */
function filesUnder(dir: string, keep: (name: string) => boolean): string[] {
  return readdirSync(resolve(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter(keep)
    .map((name) => resolve(ROOT, dir, name));
}

/** The body rows of every Markdown table in `text`, as trimmed cells (header and separator rows left out). */
function tableRows(text: string): string[][] {
  const rows: string[][] = [];
  let inTable = false;
  for (const line of text.split('\n')) {
    if (!line.startsWith('|')) {
      inTable = false;
      continue;
    }
    const cells = line
      .slice(1, line.endsWith('|') ? -1 : undefined)
      .split('|')
      .map((cell) => cell.trim());
    if (!inTable) {
      inTable = true; // the header row
      continue;
    }
    if (cells.every((cell) => /^:?-+:?$/.test(cell))) continue;
    rows.push(cells);
  }
  return rows;
}

/** The section of `text` from the heading `## title` to the next heading of that level. */
function section(text: string, title: string): string {
  const start = text.indexOf(`\n## ${title}\n`);
  if (start < 0) throw new Error(`No section "${title}"`);
  const end = text.indexOf('\n## ', start + 1);
  return text.slice(start, end < 0 ? undefined : end);
}

/** Names of environment variables the server's own code reads (tests and their helpers left out). */
function variablesReadByServer(): Set<string> {
  const names = new Set<string>();
  const sources = filesUnder('server', (name) => name.endsWith('.ts') && !name.endsWith('.test.ts') && !name.startsWith('testing/'));
  for (const file of sources) {
    const text = readFileSync(file, 'utf8');
    // env.NAME, env?.NAME, process.env.NAME, env['NAME'], and integerSetting(env, 'NAME', ...).
    for (const match of text.matchAll(/\benv(?:\?\.|\.)([A-Z][A-Z0-9_]*)\b/g)) names.add(match[1] ?? '');
    for (const match of text.matchAll(/\benv\[\s*'([A-Z][A-Z0-9_]*)'\s*\]/g)) names.add(match[1] ?? '');
    for (const match of text.matchAll(/Setting\(\s*env,\s*'([A-Z][A-Z0-9_]*)'/g)) names.add(match[1] ?? '');
    if (file.endsWith('/server/config.ts')) {
      // config.ts also names settings in lists it checks (['SITE_API_KEY', 'SITE_ID'].filter(...)).
      for (const match of text.matchAll(/'([A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+)'/g)) names.add(match[1] ?? '');
    }
  }
  return names;
}

const CONFIGURATION = readFileSync(resolve(ROOT, 'docs/configuration.md'), 'utf8');
const SETTINGS_ROWS = tableRows(section(CONFIGURATION, 'Settings')).map(([names = '', fallback = '']) => ({
  names: [...names.matchAll(/`([A-Z][A-Z0-9_]*)`/g)].map((match) => match[1] ?? ''),
  fallback,
}));

describe('docs/configuration.md against server/config.ts', () => {
  it('SETTINGS lists exactly the environment variables the server reads', () => {
    expect([...variablesReadByServer()].sort()).toEqual(Object.keys(SETTINGS).sort());
  });

  it('the settings table names every setting once, and nothing else', () => {
    const documented = SETTINGS_ROWS.flatMap((row) => row.names);
    expect(documented.length).toBe(new Set(documented).size);
    expect([...documented].sort()).toEqual(Object.keys(SETTINGS).sort());
  });

  it('each setting is documented with its default', () => {
    for (const row of SETTINGS_ROWS) {
      for (const name of row.names) {
        const fallback = SETTINGS[name as SettingName];
        if (fallback === undefined) {
          // No default: a dash, or what being unset means.
          expect(row.fallback, name).toMatch(/^(—|\*\(unset: .+\)\*)$/);
        } else {
          expect(row.fallback, name).toContain(`\`${String(fallback)}\``);
        }
      }
    }
  });

  it('the defaults of SETTINGS are what the server uses when nothing is set', () => {
    const config = loadConfig({});
    expect(config.host).toBe(SETTINGS.HOST);
    expect(config.port).toBe(SETTINGS.PORT);
    expect(config.proxyTimeoutMs).toBe(SETTINGS.PROXY_TIMEOUT_MS);
    expect(config.maxBodyBytes).toBe(SETTINGS.MAX_BODY_BYTES);
    expect(config.logRequests).toBe(SETTINGS.LOG_REQUESTS);
    expect(config.database).toEqual({ engine: 'sqlite', file: resolve(SETTINGS.DATA_DIR, DATABASE_FILE) });
    expect(config.sandbox).toEqual({
      dataDir: resolve(SETTINGS.SANDBOX_DATA_DIR),
      port: SETTINGS.SANDBOX_PORT,
      apiKey: SETTINGS.SANDBOX_API_KEY,
      siteId: SETTINGS.SANDBOX_SITE_ID,
    });
    // The settings without a default: the sandbox as the one site, no login, counts in memory, loopback names.
    expect(config.siteProfile).toBeUndefined();
    expect(config.sites.map((site) => site.upstream)).toEqual(['sandbox']);
    expect(config.adminOwner).toBeUndefined();
    expect(config.redisUrl).toBeUndefined();
    expect(config.allowedHosts).toEqual(LOOPBACK_HOSTS);
  });
});

describe('limits stated in docs/ against src/contract', () => {
  const constants = new Map<string, number>();
  for (const [name, value] of Object.entries({ ...rules, ...identifiers })) {
    if (name.startsWith('MAX_') && typeof value === 'number') constants.set(name, value);
  }
  // Rows of any docs table whose last cell names a contract constant: | what | limit | ... | `MAX_X` |
  const documented = filesUnder('docs', (name) => name.endsWith('.md')).flatMap((file) =>
    tableRows(readFileSync(file, 'utf8')).flatMap((cells) => {
      const name = /^`(MAX_[A-Z_]+)`$/.exec(cells.at(-1) ?? '')?.[1];
      return name ? [{ file: file.slice(ROOT.length), name, limit: cells[1] ?? '' }] : [];
    }),
  );

  it('every limit of rules.ts and identifiers.ts is documented', () => {
    expect(constants.size).toBeGreaterThan(0);
    expect([...new Set(documented.map((row) => row.name))].sort()).toEqual([...constants.keys()].sort());
  });

  it('each documented limit is the number in the code', () => {
    for (const row of documented) {
      const stated = /\d[\d,]*/.exec(row.limit)?.[0];
      expect(constants.has(row.name), `${row.file}: ${row.name} is not a limit of the contract`).toBe(true);
      expect(Number(stated?.replaceAll(',', '')), `${row.file}: ${row.name}`).toBe(constants.get(row.name));
    }
  });
});

describe('docs/architecture.md against the folders and the pipeline', () => {
  const ARCHITECTURE = readFileSync(resolve(ROOT, 'docs/architecture.md'), 'utf8');
  /** The part of the page under the heading `### title`, up to the next heading of level 2 or 3. */
  const part = (title: string) => {
    const start = ARCHITECTURE.indexOf(`\n### ${title}`);
    if (start < 0) throw new Error(`docs/architecture.md has no section "${title}"`);
    const end = ARCHITECTURE.slice(start + 1).search(/\n#{2,3} /);
    return ARCHITECTURE.slice(start, end < 0 ? undefined : start + 1 + end);
  };
  const folders = (dir: string) =>
    readdirSync(resolve(ROOT, dir), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);

  it('names every feature folder of src/features', () => {
    const features = folders('src/features');
    expect(features.length).toBeGreaterThan(0);
    const section = part('Features');
    expect(features.filter((name) => !section.includes(`\`${name}/\``))).toEqual([]);
  });

  it('names every folder of server/', () => {
    const areas = folders('server');
    expect(areas.length).toBeGreaterThan(0);
    const section = part('The server');
    expect(areas.filter((name) => !section.includes(`\`${name}/\``))).toEqual([]);
  });

  it('names every step of the pipeline by its module, in the order of the list in server/app.ts', () => {
    const app = readFileSync(resolve(ROOT, 'server/app.ts'), 'utf8');
    // Where each imported name comes from: `import { checkHost } from './pipeline/host-check'`.
    const moduleOf = new Map<string, string>();
    for (const match of app.matchAll(/^import \{([^}]*)\} from '\.\/([^']+)';$/gm)) {
      for (const name of (match[1] ?? '').split(',')) moduleOf.set(name.trim(), `${match[2] ?? ''}.ts`);
    }
    const list = /runSteps\(\[([\s\S]*?)\n {2}\]\);/.exec(app)?.[1] ?? '';
    // Each step is a name at the start of its line (after a spread's `[` when it is left out in some runs).
    const steps = [...list.replace(/\/\/.*$/gm, '').matchAll(/^\s*(?:\.\.\.\(.*\[)?([A-Za-z]\w*)/gm)].map((match) => match[1] ?? '');
    const modules = steps.flatMap((step) => {
      const module = moduleOf.get(step);
      return module ? [module] : [];
    });
    expect(modules.length).toBeGreaterThan(5);
    // The doc names each module with its folder when it is not in pipeline/ (activity/record-site-calls.ts).
    const named = (module: string) => ARCHITECTURE.indexOf(`\`${module.replace(/^pipeline\//, '')}\``);
    expect(modules.filter((module) => named(module) < 0)).toEqual([]);
    const positions = modules.map(named);
    expect(positions).toEqual([...positions].sort((a, b) => a - b));
  });

  it('no step numbers itself: the list in server/app.ts is the order', () => {
    const numbered = filesUnder('server/pipeline', (name) => name.endsWith('.ts')).filter((file) =>
      /\bstep \d+\b/i.test(readFileSync(file, 'utf8')),
    );
    expect(numbered.map((file) => file.slice(ROOT.length))).toEqual([]);
  });
});
