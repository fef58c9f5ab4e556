/**
 * The header-injecting proxy of one site, the last step of a site's call (see app.ts): an operation the
 * allowlist admitted → that site's platform (or the sandbox), with x-api-key and x-site-id added from
 * server-side settings. Each site has its own proxy, holding its own address, key, site id and connection
 * pool, so nothing a request says can pair one site's key with another site's address.
 *
 * What comes back is checked, not trusted (see platform-answer.ts): only JSON is served, errors reach the
 * browser in the spec's error shape, and the key is removed from any answer that echoes it.
 *
 * Each call ends with one outcome, and a write's with what its answer means (the one table,
 * src/contract/write-outcome.ts), told to the pipeline's hooks in order before the browser hears it.
 *
 * Built on node:http streams with a keep-alive agent rather than a fetch-based helper: measured on this
 * kind of machine, a fetch-based proxy managed about a tenth of a bare route's throughput.
 */
import http from 'node:http';
import https from 'node:https';
import { PLATFORM_STATUS_HEADER } from '../src/contract/server-meta';
import { closeIfBodyPending, refuse } from './answers';
import { writeOutcome, type WriteAnswer } from '../src/contract/write-outcome';
import { WriteRefused, type ForwardOutcome, type ResolvedSite, type WriteNotes } from './pipeline/context';
import { readPlatformAnswer } from './platform-answer';

/** "15 seconds", "0.5 seconds": a wait in words people read, not milliseconds. */
function seconds(ms: number): string {
  const value = Number((ms / 1000).toFixed(1));
  return `${value} ${value === 1 ? 'second' : 'seconds'}`;
}

export interface ProxyOptions {
  /** The platform's base address, ending in /api/site/v2. */
  upstream: URL;
  apiKey: string;
  siteId: string;
  timeoutMs: number;
  maxBodyBytes: number;
  /**
   * Pooled connections idle this long are closed: shorter than common NAT and load-balancer idle timeouts
   * (60 s and up), so a connection that a NAT dropped silently is never reused.
   */
  idleSocketMs?: number;
  /**
   * A lookup sent on a reused connection that gets no answer at all within this time is sent once more on a
   * fresh connection (the pooled one may have died silently). Default: a third of timeoutMs, at most 5 s.
   */
  reusedSocketAnswerMs?: number;
  /** Largest platform answer passed on; a larger one gets 502. */
  maxAnswerBytes?: number;
}

export const DEFAULT_IDLE_SOCKET_MS = 30_000;
export const DEFAULT_MAX_ANSWER_BYTES = 32 * 1024 * 1024;

/** Request headers passed on from the browser; everything else (cookies, auth headers) is dropped. */
const FORWARDED_REQUEST_HEADERS = ['accept', 'content-type', 'content-length'] as const;

/** Forwards one admitted operation and passes the platform's checked answer back; `requestId` goes with it. */
export type SiteProxy = ResolvedSite['forward'];

/** No answer came (none at all, none in time, or the browser went away first). */
const NO_ANSWER: WriteAnswer = { kind: 'none' };

/** An answer of our own server's, in place of the platform's (413, or 503 when a write was not sent). */
const ourAnswer = (status: number, message: string): WriteAnswer => ({ kind: 'answer', status, readable: true, retryAfter: null, message });

export function createProxy(options: ProxyOptions): SiteProxy {
  const { upstream, apiKey, siteId, timeoutMs, maxBodyBytes } = options;
  const idleSocketMs = options.idleSocketMs ?? DEFAULT_IDLE_SOCKET_MS;
  const reusedSocketAnswerMs = options.reusedSocketAnswerMs ?? Math.min(5_000, Math.max(100, Math.floor(timeoutMs / 3)));
  const maxAnswerBytes = options.maxAnswerBytes ?? DEFAULT_MAX_ANSWER_BYTES;
  const client = upstream.protocol === 'https:' ? https : http;
  // lifo: the most recently used connection goes out first, so the rest age out of the pool.
  const agent = new client.Agent({ keepAlive: true, maxSockets: 256, maxFreeSockets: 64, timeout: idleSocketMs, scheduling: 'lifo' });
  const upstreamBasePath = upstream.pathname.replace(/\/+$/, '');
  // URL keeps IPv6 literals in brackets; http.request wants the bare address.
  const upstreamHost = upstream.hostname.replace(/^\[(.*)\]$/, '$1');
  const upstreamPort = upstream.port || undefined;

  return function proxy(req, res, route, requestId, hooks = []) {
    const headers: Record<string, string> = {
      'x-api-key': apiKey,
      'x-site-id': siteId,
      'x-request-id': requestId,
    };
    for (const name of FORWARDED_REQUEST_HEADERS) {
      const value = req.headers[name];
      if (typeof value === 'string') headers[name] = value;
    }
    if (route.method === 'GET') delete headers['content-length'];

    const write = route.method !== 'GET';
    let settled = false;
    /** Whether the call left for the platform (a write's body went with it, or began to). */
    let sent = false;
    /** What the hooks' `beforeSend` noted of a write as it left, for the hooks after them. */
    let noted: WriteNotes = {};
    let upstreamReq: http.ClientRequest | undefined;
    /** Every hook's `beforeAnswer`, in order, each whether or not one before it failed; false when the answer must be withheld. */
    const tellHooks = async (outcome: ForwardOutcome): Promise<boolean> => {
      let mayAnswer = true;
      for (const hook of hooks) {
        if (!hook.beforeAnswer) continue;
        try {
          await hook.beforeAnswer(outcome, noted);
        } catch (error) {
          console.error('site-admin: a step could not take the outcome of a site’s call', error);
          if (hook.answerOnlyOnceRecorded) mayAnswer = false;
        }
      }
      return mayAnswer;
    };
    const toldBeforeAnswer = hooks.some((hook) => hook.beforeAnswer);
    /** Runs `answer` once the outcome is told to the hooks (if any); a failing hook never holds a write's answer back. */
    const settle = (outcome: ForwardOutcome, answer: () => void) => {
      if (!toldBeforeAnswer) {
        answer();
        return;
      }
      void tellHooks(outcome).then((mayAnswer) => {
        // A lookup nobody recorded is not shown (every look at a case is in the record); a write's answer
        // goes out all the same, or the browser could send again a product that was created.
        if (mayAnswer) answer();
        else refuse(req, res, 503, 'The activity record could not take this lookup, so its answer is not shown. Try again in a moment.');
      });
    };
    /** The call's one outcome: how it ended, whether it left, and for a write what its answer means. */
    const ended = (how: { kind: 'failed'; status: number; reason: string }, answer: WriteAnswer): ForwardOutcome => ({
      ...how,
      sent,
      write: write ? writeOutcome(answer) : null,
    });
    const fail = (status: number, message: string, answer: WriteAnswer = NO_ANSWER) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      upstreamReq?.destroy();
      settle(ended({ kind: 'failed', status, reason: message }, answer), () => refuse(req, res, status, message));
    };
    // One deadline for the whole answer: headers and body alike, retries included.
    const timer = setTimeout(() => fail(504, `The platform did not answer within ${seconds(timeoutMs)}.`), timeoutMs);

    const send = (attempt: number): http.ClientRequest => {
      const request = client.request({
        protocol: upstream.protocol,
        hostname: upstreamHost,
        port: upstreamPort,
        method: route.method,
        path: upstreamBasePath + route.upstreamPath,
        headers,
        // The second attempt of a lookup takes a connection of its own, never one from the pool.
        agent: attempt === 0 ? agent : false,
      });
      let probe: NodeJS.Timeout | undefined;
      const retry = () => {
        clearTimeout(probe);
        request.removeAllListeners('response');
        request.removeAllListeners('error');
        request.on('error', () => undefined);
        request.destroy();
        upstreamReq = send(1);
        upstreamReq.end();
      };
      // A lookup is safe to send again; a create never is (it might have arrived).
      const mayRetry = route.method === 'GET' && attempt === 0;
      request.on('socket', () => {
        if (!mayRetry || !request.reusedSocket) return;
        // A pooled connection that a NAT dropped silently swallows the request: no answer, no error.
        probe = setTimeout(() => {
          if (!settled) retry();
        }, reusedSocketAnswerMs);
      });
      request.on('error', (error: NodeJS.ErrnoException) => {
        clearTimeout(probe);
        if (settled) return;
        // The platform closed an idle pooled connection just as we used it.
        if (mayRetry && request.reusedSocket && (error.code === 'ECONNRESET' || error.code === 'EPIPE')) {
          retry();
          return;
        }
        fail(502, 'The platform could not be reached, or broke off its answer.');
      });
      request.on('response', (upstreamRes) => {
        clearTimeout(probe);
        if (settled) {
          upstreamRes.resume();
          return;
        }
        // The browser tells "the platform answered 500" from "the platform could not be reached" by this,
        // as both reach it as our 502 when the platform's answer is not JSON.
        res.setHeader(PLATFORM_STATUS_HEADER, String(upstreamRes.statusCode ?? 0));
        readPlatformAnswer(upstreamRes, { apiKey, maxAnswerBytes }, (answer) => {
          if (settled) return;
          settled = true;
          clearTimeout(timer);
          const status = upstreamRes.statusCode ?? answer.status;
          const retryAfter = answer.headers['retry-after'] ?? null;
          if (answer.kind === 'error') {
            // Not the platform's body passed on: a success that is not JSON (unknown), or an error, whose status says more.
            const seen: WriteAnswer = {
              kind: 'answer',
              status,
              readable: false,
              retryAfter,
              message: answer.message,
              details: answer.details,
            };
            settle({ kind: 'answered', status, body: null, sent, write: write ? writeOutcome(seen) : null }, () =>
              refuse(req, res, answer.status, answer.message, answer.details, answer.headers),
            );
            return;
          }
          // The answer as text only for a hook that reads it (a create's outcome), never for every lookup.
          let text: string | undefined;
          const outcome: ForwardOutcome = {
            kind: 'answered',
            status: answer.status,
            get body() {
              return (text ??= answer.body.toString());
            },
            sent,
            write: write ? writeOutcome({ kind: 'answer', status: answer.status, readable: true, retryAfter }) : null,
          };
          settle(outcome, () => {
            // The platform answered before the whole body arrived: this connection carries nothing more.
            closeIfBodyPending(req, res);
            res.writeHead(answer.status, {
              'content-type': 'application/json; charset=utf-8',
              'content-length': answer.bytes,
              'cache-control': 'no-store',
              ...answer.headers,
            });
            res.end(answer.body);
          });
        });
      });
      return request;
    };
    res.on('close', () => {
      // The browser went away: stop waiting for the platform.
      if (!res.writableFinished) {
        clearTimeout(timer);
        upstreamReq?.destroy();
        if (!settled) {
          settled = true;
          settle(ended({ kind: 'failed', status: 0, reason: 'The browser went away before the answer.' }, NO_ANSWER), () => undefined);
        }
      }
    });

    if (route.method === 'GET') {
      upstreamReq = send(0);
      sent = true;
      upstreamReq.end();
      return;
    }
    const beforeSend = hooks.some((hook) => hook.beforeSend);
    if (!beforeSend) {
      upstreamReq = send(0);
      sent = true;
    }
    // With a hook that must see the whole body first, the body is gathered (at most maxBodyBytes) and sent
    // in one piece once the hook has it; otherwise it streams through as it arrives.
    const gathered: Buffer[] = [];
    let received = 0;
    req.on('data', (chunk: Buffer) => {
      received += chunk.length;
      if (received > maxBodyBytes) {
        const message = `The request body is larger than ${maxBodyBytes} bytes.`;
        fail(413, message, ourAnswer(413, message));
        return;
      }
      // Each attempt at a create is its first: upstreamReq is the request this body belongs to.
      if (upstreamReq) upstreamReq.write(chunk);
      else gathered.push(chunk);
    });
    req.on('end', () => {
      if (received > maxBodyBytes || settled) return;
      if (!beforeSend) {
        upstreamReq?.end();
        return;
      }
      const body = Buffer.concat(gathered);
      // Each hook in turn, with what the hooks before it noted; a call already ended goes no further.
      const beforeSending = async () => {
        for (const hook of hooks) {
          if (settled) return;
          const more = await hook.beforeSend?.(body, noted);
          if (more) noted = { ...noted, ...more };
        }
      };
      beforeSending().then(
        () => {
          if (settled) return;
          upstreamReq = send(0);
          sent = true;
          upstreamReq.end(body);
        },
        (error: unknown) => {
          if (settled) return;
          if (error instanceof WriteRefused) {
            // A hook refused the write for a reason of its own: its answer, and nothing sent.
            settled = true;
            clearTimeout(timer);
            const answer: WriteAnswer = {
              kind: 'answer',
              status: error.status,
              readable: true,
              retryAfter: error.headers['retry-after'] ?? null,
              message: error.message,
              details: error.details,
            };
            settle(ended({ kind: 'failed', status: error.status, reason: error.message }, answer), () =>
              refuse(req, res, error.status, error.message, error.details, error.headers),
            );
            return;
          }
          console.error('site-admin: the activity record could not take a write before it left', error);
          settled = true;
          clearTimeout(timer);
          const message = 'site-admin could not write this change to its activity record, so it did not send it; try again in a moment.';
          // Nothing left: every hook hears so (the import takes back the product it had marked as sending).
          settle(ended({ kind: 'failed', status: 503, reason: message }, ourAnswer(503, message)), () => refuse(req, res, 503, message));
        },
      );
    });
    req.on('error', () => upstreamReq?.destroy());
  };
}
