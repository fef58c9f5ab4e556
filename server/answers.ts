/**
 * Answers the server gives itself, always in the spec's error shape, and how a refused request ends.
 *
 * A refusal must cost us little: whatever body the client is still sending is thrown away, never kept. The
 * answer goes out at once with `Connection: close`; then, rather than dropping the socket the moment the
 * answer is written (which resets the connection under a client that is still uploading, so it never sees
 * the answer), we close our side and discard what is still arriving for a short, bounded while: at most
 * LINGER_BYTES read after the refusal, and at most LINGER_MS after the answer.
 */
import { STATUS_CODES, type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { errorBody, STATUS_PHRASES, type ErrorDetail } from '../src/contract/site-api';

/** How long a refused connection is drained after its answer, at most. */
export const LINGER_MS = 2_000;
/** How much of a refused upload is read (and thrown away) after the refusal, at most. */
export const LINGER_BYTES = 16 * 1024 * 1024;

/**
 * True when the request says it carries a body, whether or not it has all arrived: after a step that waits
 * (the session's look-up in the database), a small body may be complete, and still unread.
 */
export function bodyDeclared(req: IncomingMessage): boolean {
  return req.headers['transfer-encoding'] !== undefined || Number(req.headers['content-length'] ?? 0) > 0;
}

/** True while the request still has body bytes on their way (node's parser has not seen its end). */
export function bodyPending(req: IncomingMessage): boolean {
  return !req.complete && bodyDeclared(req);
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
 * Ends the connection of a request whose body is still on its way, once the answer is out, reading at most
 * LINGER_BYTES more of it and for at most LINGER_MS after the answer.
 *
 * The bytes are counted off the socket itself (`bytesRead`), and the request is consumed here from the
 * start: a request nobody consumes is "dumped" by Node once its answer is sent, and a dumped request's body
 * is still read off the socket to its end but reaches no listener, so no listener could count it.
 *
 * Node ends a `Connection: close` exchange by calling the socket's destroySoon(): it destroys the socket as
 * soon as the answer is written, and the kernel answers bytes still arriving with a reset that can overtake
 * the answer at the client. This replaces that call for this one socket (it is never reused: the answer
 * said close): our side is closed at once, and what still arrives is read and thrown away within the
 * bounds. Should Node stop calling destroySoon, its own behaviour (no drain) simply stays in place.
 */
function closeAfterAnswer(req: IncomingMessage) {
  const socket = req.socket as Socket & { destroySoon?: () => void };
  const readLimit = socket.bytesRead + LINGER_BYTES;
  req.removeAllListeners('data');
  req.on('data', () => {
    if (socket.bytesRead > readLimit) socket.destroy();
  });
  req.on('error', () => undefined);
  const nodeDestroySoon = socket.destroySoon?.bind(socket);
  socket.destroySoon = () => {
    // Nothing more is coming: nothing can reset the answer, and Node's own close is right.
    if (req.complete && nodeDestroySoon) {
      nodeDestroySoon();
      return;
    }
    socket.end();
    const timer = setTimeout(() => socket.destroy(), LINGER_MS);
    timer.unref();
    socket.once('close', () => clearTimeout(timer));
    req.on('end', () => socket.destroy());
  };
}

/**
 * Refuses a request, keeping nothing of its body: answers in the error shape at once, with
 * `Connection: close` when body bytes are still on their way (the connection cannot carry another request
 * without reading them all), and drains the connection within bounds after the answer so that the client
 * sees it.
 */
export function refuse(
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  details?: ErrorDetail[],
  extraHeaders: Record<string, string> = {},
) {
  if (!bodyPending(req)) {
    sendError(res, status, message, details, extraHeaders);
    return;
  }
  closeAfterAnswer(req);
  sendError(res, status, message, details, { ...extraHeaders, connection: 'close' });
}

/** For an answer passed on from the platform: closes the connection afterwards if the body never ended. */
export function closeIfBodyPending(req: IncomingMessage, res: ServerResponse) {
  if (!bodyPending(req)) return;
  closeAfterAnswer(req);
  res.setHeader('connection', 'close');
}
