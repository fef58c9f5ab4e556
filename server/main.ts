/**
 * `npm start`: the production server (serve.ts), with the activity record as it always is.
 */
import { serve } from './serve';

await serve();
