/** The import's worker: parses the file and checks every product off the page's thread (see check-work.ts). */
import { handle, type WorkState } from './check-work';
import type { FromWorker, ToWorker } from './protocol';

interface WorkerScope {
  postMessage(message: FromWorker): void;
  addEventListener(type: 'message', listener: (event: MessageEvent<ToWorker>) => void): void;
}

const scope = self as unknown as WorkerScope;
const state: WorkState = { rows: [] };
// One message at a time, in order: a check never runs on half-parsed rows.
let queue: Promise<void> = Promise.resolve();
scope.addEventListener('message', (event) => {
  queue = queue.then(() => handle(event.data, state, (m) => scope.postMessage(m)));
});
