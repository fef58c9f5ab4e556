/**
 * `npm run demo`: the stakeholder demo. The built server on the example profile's two sandbox shops, with
 * three demo people (an owner, an editor of one shop, support on both) whose passwords the sign-in page
 * shows. Its data lives in data/demo, apart from `npm start`'s, so the demo people never end up among a
 * real deployment's. DEMO_PEOPLE refuses live sites: set SITE_PROFILE to a profile of sandbox sites only.
 */
import { resolve } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
process.env.SITE_PROFILE ||= resolve(root, 'server/site-profile.example.json');
process.env.DATA_DIR ||= resolve(root, 'data/demo');
process.env.DEMO_PEOPLE = 'true';

await import(pathToFileURL(resolve(root, 'dist-server/main.js')).href);
