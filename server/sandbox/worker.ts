/**
 * The sandbox in a worker thread of the server (`npm start` without a platform): its own event loop on the
 * machine's other core, so the proxy and the sandbox no longer take turns on one thread. It starts the same
 * sandbox as `npm run sandbox` (startSandbox), says where it listens, and closes it when asked.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { startSandbox, type FromSandboxWorker, type StartSandboxOptions, type ToSandboxWorker } from './start';

const port = parentPort;
if (!port) throw new Error('server/sandbox/worker.ts runs only as a worker thread (see startSandboxWorker).');
const say = (message: FromSandboxWorker) => port.postMessage(message);

try {
  const sandbox = await startSandbox(workerData as StartSandboxOptions);
  port.on('message', (message: ToSandboxWorker) => {
    if (message.type !== 'close') return;
    void sandbox.close().then(() => {
      say({ type: 'closed' });
      port.close();
    });
  });
  say({ type: 'ready', baseUrl: sandbox.baseUrl.href, origin: sandbox.origin });
} catch (error) {
  say({ type: 'failed', message: (error as Error).message, code: (error as NodeJS.ErrnoException).code });
  port.close();
}
