/**
 * A stand-in platform that records every request it receives (method, target, headers, body) and answers
 * each as the spec's examples do, 200 with an empty JSON object, or as `answer` says: what a test needs to
 * show that a request reached the platform exactly as intended, or that nothing reached it at all.
 */
import http, { type IncomingHttpHeaders } from 'node:http';
import { closeServer, listen } from './test-helpers';

export interface ReceivedRequest {
  method: string;
  /** The request target as sent: path and query. */
  url: string;
  headers: IncomingHttpHeaders;
  body: string;
}

export interface RecordingPlatform {
  port: number;
  /** Every request so far, in the order they arrived; empty it between cases. */
  received: ReceivedRequest[];
  close(): Promise<void>;
}

export async function recordingPlatform(
  answer: (request: ReceivedRequest) => { status: number; body: string } = () => ({ status: 200, body: '{}' }),
): Promise<RecordingPlatform> {
  const received: ReceivedRequest[] = [];
  const server = http.createServer((req, res) => {
    const entry: ReceivedRequest = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: '' };
    received.push(entry);
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (entry.body += chunk));
    req.on('end', () => {
      const { status, body } = answer(entry);
      res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) });
      res.end(body);
    });
  });
  return { port: await listen(server), received, close: () => closeServer(server) };
}
