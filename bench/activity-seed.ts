/**
 * A million entries of the activity record, as a team's year of work would leave them: case lookups, product
 * creates with their bodies and outcomes, sign-ins and sign-outs, people's changes; about twenty people on
 * four sites; chained and hashed as the store hashes them (activity-store.ts), so the chain verifies. Written
 * straight into the database (migrated first), a transaction of many rows at a time: better-sqlite3's
 * prepared insert on SQLite, multi-row inserts from arrays (`unnest`) on PostgreSQL.
 */
import pg from 'pg';
import { chainedRow, GENESIS_HASH, type ActivityRow, type NewEntry } from '../server/activity/activity-store';
import type { DatabaseSetting } from '../server/config';
import { openDatabase } from '../server/db/open';

export const PEOPLE = [
  'Ada Okafor',
  'Ben Lindqvist',
  'Chloé Martin',
  'Dev Patel',
  'Eva Nowak',
  'Farid Haddad',
  'Grace Kim',
  'Hugo Schmidt',
  'Ines Costa',
  'Jonas Berg',
  'Keiko Tanaka',
  'Liam Walsh',
  'Maya Cohen',
  'Nils Jensen',
  'Olivia Brown',
  'Pablo Ruiz',
  'Quinn Taylor',
  'Rosa Bianchi',
  'Sam Carter',
  'Tomás Silva',
].map((name, i) => ({ id: `person-${String(i + 1).padStart(2, '0')}`, name }));
export const SITES = ['main', 'outlet', 'wholesale', 'eu'];
const ADJECTIVES = ['Classic', 'Modern', 'Rustic', 'Compact', 'Deluxe', 'Everyday', 'Travel', 'Heritage', 'Nordic', 'Studio'];
const MATERIALS = ['stoneware', 'oak', 'linen', 'brass', 'walnut', 'cotton', 'glass', 'leather', 'bamboo', 'steel'];
const THINGS = ['mug', 'tray', 'lamp', 'bowl', 'throw', 'vase', 'stool', 'kettle', 'basket', 'clock', 'planter', 'shelf'];
const COLOURS = ['blue', 'sand', 'black', 'white', 'green', 'rust', 'grey', 'amber'];
const AGENTS = ['Chrome 131 on Windows', 'Firefox 133 on Linux', 'Safari 18 on macOS', 'Edge 131 on Windows', 'Chrome 131 on Android'];

/** A deterministic random sequence (mulberry32), so every run seeds the same record. */
function randomOf(seed: number) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export interface SeedShape {
  count: number;
  /** The newest entry's time; the others go back over 400 days. */
  end: number;
}

/** What the bench searches for: values that exist in the seeded record. */
export interface SeedSamples {
  slug: string;
  caseId: string;
  /** Words of a product's name that are rare in the record, and words common in it. */
  rareName: string;
  commonName: string;
  start: number;
  end: number;
}

/** The entries, as rows ready to insert, a batch at a time. */
export function* seedRows(shape: SeedShape, batch: number, samples: Partial<SeedSamples> = {}): Generator<ActivityRow[]> {
  const random = randomOf(21);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(random() * items.length)] as T;
  const start = shape.end - 400 * 86_400_000;
  const step = (shape.end - start) / shape.count;
  let seq = 0;
  let prev = GENESIS_HASH;
  let rows: ActivityRow[] = [];
  let products = 0;
  const push = (entry: NewEntry) => {
    seq += 1;
    const row = chainedRow(entry, seq, prev);
    rows.push(row);
    prev = row.hash;
  };
  while (seq < shape.count) {
    const at = Math.round(start + seq * step + random() * step * 0.5);
    const r = random();
    const person = pick(PEOPLE);
    const base = {
      at,
      actor: { kind: 'person', ...person } as const,
      siteId: pick(SITES),
      requestId: `req-${seq.toString(36)}`,
      address: `10.0.${Math.floor(random() * 8)}.${1 + Math.floor(random() * 250)}`,
      userAgent: pick(AGENTS),
    };
    if (r < 0.55) {
      const caseId = String(10_000 + Math.floor(random() * 90_000));
      const found = random();
      push({
        ...base,
        action: 'case.lookup',
        target: { form: pick(['3', '5', '8', '12']), case: caseId },
        outcome: found < 0.9 ? 'found' : found < 0.98 ? 'not-found' : 'failed',
        status: found < 0.9 ? 200 : found < 0.98 ? 404 : 502,
        durationMs: 40 + Math.floor(random() * 200),
      });
      if (samples.caseId === undefined && seq >= shape.count / 3) samples.caseId = caseId;
    } else if (r < 0.85 && seq + 2 <= shape.count) {
      products += 1;
      const name = `${pick(ADJECTIVES)} ${pick(MATERIALS)} ${pick(THINGS)}, ${pick(COLOURS)}`;
      const slug = `${name.toLowerCase().replace(/[^a-z]+/g, '-')}-${products}`;
      const body = {
        name,
        slug,
        enabled: 'true',
        weighting: '10',
        category_array: [{ id: String(150_000 + Math.floor(random() * 100)) }],
        'module_field_14/product_1': `${name}. Made to last; see the care notes.`,
        'module_field_14/product/price/usd/1': String(500 + Math.floor(random() * 20_000)),
      };
      push({ ...base, action: 'product.create', target: { name, slug }, outcome: 'sent', detail: { body: JSON.stringify(body) } });
      const createdSeq = seq;
      const answer = random();
      const outcome = answer < 0.93 ? 'created' : answer < 0.98 ? 'rejected' : 'unknown';
      push({
        ...base,
        at: at + 150,
        action: 'product.create.outcome',
        refersTo: createdSeq,
        target: { name, slug },
        outcome,
        status: outcome === 'created' ? 200 : outcome === 'rejected' ? 422 : 502,
        durationMs: 80 + Math.floor(random() * 400),
        detail: outcome === 'created' ? { answer: JSON.stringify({ id: String(900_000 + products), slug }) } : { reason: 'see status' },
      });
      if (products === 1_000) samples.slug = slug;
    } else if (r < 0.95) {
      push({ ...base, siteId: null, action: 'sign-in', outcome: 'ok', detail: { method: pick(['password', 'passkey']) } });
    } else if (r < 0.97) {
      push({
        ...base,
        siteId: null,
        actor: { kind: 'anonymous' },
        action: 'sign-in.failed',
        outcome: 'refused',
        detail: { method: 'password' },
      });
    } else if (r < 0.995) {
      push({ ...base, siteId: null, action: 'sign-out', outcome: 'ok' });
    } else {
      push({
        ...base,
        siteId: null,
        action: 'person.changed',
        target: { name: pick(PEOPLE).name },
        outcome: 'ok',
        detail: { change: 'grants' },
      });
    }
    if (rows.length >= batch) {
      yield rows;
      rows = [];
    }
  }
  if (rows.length > 0) yield rows;
  // A word pair that occurs in few names (one of 1,000 combinations of adjective, material and thing) and one that occurs in many.
  samples.rareName = 'heritage walnut kettle';
  samples.commonName = 'stoneware';
  samples.start = start;
  samples.end = shape.end;
}

const COLUMNS = Object.keys(
  chainedRow({ at: 0, actor: { kind: 'demo' }, action: 'x', outcome: 'x' }, 1, GENESIS_HASH),
) as (keyof ActivityRow)[];
const PG_TYPES: Partial<Record<keyof ActivityRow, string>> = {
  seq: 'bigint',
  at: 'bigint',
  refers_to: 'bigint',
  status: 'integer',
  duration_ms: 'integer',
};

/** Migrates the database of `setting` and writes `shape.count` entries into its (empty) record. */
export async function seedActivity(setting: DatabaseSetting, shape: SeedShape): Promise<{ ms: number; samples: SeedSamples }> {
  const samples: Partial<SeedSamples> = {};
  const started = performance.now();
  const database = await openDatabase(setting);
  try {
    if (database.sqlite) {
      const sqlite = database.sqlite;
      const insert = sqlite.prepare(`insert into activity (${COLUMNS.join(', ')}) values (${COLUMNS.map((c) => `@${c}`).join(', ')})`);
      const write = sqlite.transaction((rows: ActivityRow[]) => {
        for (const row of rows) insert.run(row);
      });
      for (const rows of seedRows(shape, 20_000, samples)) write(rows);
      sqlite.pragma('wal_checkpoint(TRUNCATE)');
      sqlite.exec('analyze');
    } else if (setting.engine === 'postgres') {
      const client = new pg.Client({ connectionString: setting.url.href });
      await client.connect();
      try {
        const text = `insert into activity (${COLUMNS.join(', ')}) select * from unnest(${COLUMNS.map(
          (c, i) => `$${i + 1}::${PG_TYPES[c] ?? 'text'}[]`,
        ).join(', ')})`;
        for (const rows of seedRows(shape, 10_000, samples)) {
          await client.query(
            text,
            COLUMNS.map((c) => rows.map((row) => row[c])),
          );
        }
        await client.query('vacuum analyze activity');
      } finally {
        await client.end();
      }
    }
  } finally {
    await database.close();
  }
  return { ms: performance.now() - started, samples: samples as SeedSamples };
}
