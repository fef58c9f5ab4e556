// The entry of the sandbox's worker thread (see startSandboxWorker in start.ts). A worker starts without the
// TypeScript loader that `tsx` gives the main thread under Vitest, so it registers tsx's loader itself
// before it imports the TypeScript.
import { register } from 'tsx/esm/api';

register();
await import('./worker.ts');
