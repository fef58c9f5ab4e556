/**
 * `npm run activity -- verify`: checks the whole chain of the activity record in site-admin's database (the
 * one DATA_DIR or DATABASE_URL names, as the server reads them) and names the first broken entry. Exits 0
 * when it verifies, 1 when it is broken, 2 when it cannot run.
 */
import { ConfigError, loadConfig } from '../config';
import { openDatabase } from '../db/open';
import { createActivityStore } from './activity-store';

const USAGE = `Usage: npm run activity -- verify

  verify   check that no entry of the activity record was changed, removed or moved since it was written`;

async function main(args: readonly string[]): Promise<number> {
  const [command] = args;
  if (command !== 'verify') {
    console.error(
      command === undefined || command === 'help' || command === '--help' ? USAGE : `Unknown command "${command}".\n\n${USAGE}`,
    );
    return command === 'help' || command === '--help' ? 0 : 2;
  }
  const database = await openDatabase(loadConfig().database);
  try {
    const result = await createActivityStore(database).verify();
    if (result.ok) {
      console.log(
        result.entries === 0
          ? `The activity record in ${database.where} is empty.`
          : `The activity record in ${database.where} verifies: ${result.entries} entries, ${result.first ?? ''} to ${result.last ?? ''}.`,
      );
      return 0;
    }
    console.error(
      `The activity record in ${database.where} is broken at entry ${result.brokenAt}: ${result.reason}. ` +
        `${result.entries} entries before it verify.`,
    );
    return 1;
  } finally {
    await database.close();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? `site-admin cannot read its activity record: ${error.message}` : error);
    process.exit(2);
  },
);
