/**
 * `npm run activity -- verify` as an operator runs it: a child process on the database DATA_DIR names;
 * it says the chain verifies, or names the first broken entry and exits 1.
 */
import { execFile } from 'node:child_process';
import { rmSync } from 'node:fs';
import { promisify } from 'node:util';
import { sql } from 'kysely';
import { afterAll, describe, expect, it } from 'vitest';
import { DATABASE_FILE } from '../config';
import { openDatabase } from '../db/open';
import { childEnv, REPO_ROOT, tempDir } from '../testing/test-helpers';
import { createActivityStore } from './activity-store';
import { join } from 'node:path';

const run = promisify(execFile);
const dataDir = tempDir('site-admin-activity-cli-');

async function verify(): Promise<{ code: number; out: string }> {
  try {
    const { stdout, stderr } = await run(process.execPath, ['--import', 'tsx', 'server/activity/cli.ts', 'verify'], {
      cwd: REPO_ROOT,
      env: childEnv({ DATA_DIR: dataDir }),
    });
    return { code: 0, out: stdout + stderr };
  } catch (error) {
    const failed = error as { code: number; stdout: string; stderr: string };
    return { code: failed.code, out: failed.stdout + failed.stderr };
  }
}

describe('npm run activity -- verify', () => {
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it('says the record verifies, then names the first entry an edit broke', async () => {
    const database = await openDatabase({ engine: 'sqlite', file: join(dataDir, DATABASE_FILE) });
    try {
      const store = createActivityStore(database);
      for (let n = 1; n <= 5; n += 1)
        await store.append({ at: n, actor: { kind: 'demo' }, action: 'case.lookup', outcome: 'found', target: { case: String(n) } });
    } finally {
      await database.close();
    }
    expect(await verify()).toMatchObject({ code: 0, out: expect.stringMatching(/verifies: 5 entries, 1 to 5/) });

    const again = await openDatabase({ engine: 'sqlite', file: join(dataDir, DATABASE_FILE) });
    try {
      await sql`update activity set outcome = 'not-found' where seq = 3`.execute(again.db);
    } finally {
      await again.close();
    }
    expect(await verify()).toMatchObject({
      code: 1,
      out: expect.stringMatching(/broken at entry 3: entry 3 was changed after it was written/),
    });
  }, 60_000);
});
