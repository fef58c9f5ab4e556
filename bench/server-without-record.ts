/**
 * The bench's own entry: the production server (server/serve.ts) with the activity record's step left out
 * of the pipeline, the "without" side of what the record costs (bench/activity.ts). Compiled by the bench
 * beside main.js; never part of `npm run build`, so no deployment can start it.
 */
import { serve } from '../server/serve';

await serve({ withoutActivityRecord: true });
