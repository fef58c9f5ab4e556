/**
 * Answers the server gives itself, always in the spec's error shape, and how a refused request ends.
 *
 * A refusal must cost us nothing: whatever body the client is still sending is not read into the request.
 * The answer goes out at once with `Connection: close`; then, rather than dropping the socket the moment the
 * answer is written (which resets the connection under a client that is still uploading, so it never sees
 * the answer), we close our side and discard what is still arriving for a short, bounded while.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody, STATUS_PHRASES, type ErrorDetail } from '../src/contract/site-api';

/** How long a refused connection is drained after its answer, at most. */
export const LINGER_MS = 2_000;
/** How much of a refused upload is drained (and thrown away) after the answer, at most. */
export const LINGER_BYTES = 16 * 1024 * 1024;

/** True while the request still has body bytes on their way (node's parser has not seen its end). */
export function bodyPending(req: IncomingMessage): boolean {
  if (req.complete) return false;
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/** The standard status phrase: the contract's, else node's (a platform may answer 503, 409, ...). */
export function statusPhrase(status: number): string {
  return STATUS_PHRASES[status] ?? STATUS_CODES[status] ?? 'Error';
}

export function sendError(
  res: ServerResponse,
  status: number,
  message: string,
  details?: ErrorDetail[],
  extraHeaders: Record<string, string> = {},
) {
  if (res.headersSent) {
    res.destroy();
    return;
  }
  const body = JSON.stringify({ ...errorBody(status, message, details), error: statusPhrase(status) });
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
    ...extraHeaders,
  });
  res.end(body);
}

/**
 * After the answer, drain what the client still sends, within LINGER_MS and LINGER_BYTES, then close.
 *
 * Node ends a `Connection: close` exchange by calling the socket's destroySoon(): it destroys the socket as
 * soon as the answer is written, and the kernel answers bytes still arriving with a reset that can overtake
 * the answer at the client. This replaces that call for this one socket (it is never reused: the answer
 * said close). Should node stop calling destroySoon, its own behaviour simply stays in place.
 */
function lingerAfterAnswer(req: IncomingMessage) {
  const socket = req.socket as Socket & { destroySoon?: () => void };
  socket.destroySoon = () => {
    socket.end();
    let drained = 0;
    const stop = () => {
      clearTimeout(timer);
      socket.destroy();
    };
    const timer = setTimeout(stop, LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    req.removeAllListeners('data');
    req.on('data', (chunk: Buffer) => {
      drained += chunk.length;
      if (drained > LINGER_BYTES) stop();
    });
    req.on('error', () => undefined);
    req.on('end', stop);
    req.resume();
  };
}

/**
 * Refuses a request without reading the rest of its body: answers in the error shape at once, with
 * `Connection: close` when body bytes are still on their way (the connection cannot carry another request
 * without reading them), and drains the connection briefly after the answer so that the client sees it.
 */
export function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  details?: ErrorDetail[],
  extraHeaders: Record<string, string> = {},
) {
  if (bodyPending(req)) {
    // Stop pulling the body: nothing of it is read until the answer is out.
    req.removeAllListeners('data');
    req.pause();
    lingerAfterAnswer(req);
    sendError(res, status, message, details, { ...extraHeaders, connection: 'close' });
    return;
  }
  sendError(res, status, message, details, extraHeaders);
}

/** For an answer passed on from the platform: closes the connection afterwards if the body never ended. */
export function closeIfBodyPending(req: IncomingMessage, res: ServerResponse) {
  if (!bodyPending(req)) return;
  req.removeAllListeners('data');
  req.pause();
  lingerAfterAnswer(req);
  res.setHeader('connection', 'close');
}
