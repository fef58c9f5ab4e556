/**
 * Our own API, beside the sites' Site API v2: a table of endpoints under /api (the list of sites, the
 * health check, signing in, people and accounts), each with its method and path. A path may hold named
 * parts (`/api/people/:id/grants`), matched one segment each and decoded. A body is JSON, at most
 * OWN_API_MAX_BODY_BYTES (or the endpoint's own `maxBodyBytes`), read here before the endpoint runs; an endpoint that is not `public` is answered
 * only for someone signed in (the authentication step refuses the rest with 401).
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import type * as z from 'zod/mini';
import type { ErrorDetail } from '../src/contract/site-api';
import { bodyDeclared, refuse, sendError } from './answers';
import type { Identity } from './identity';
import type { RequestContext } from './pipeline/context';

export const HEALTH_PATH = '/api/health';

/** The largest body our own endpoints read: a sign-in, a person's grants, a name. */
export const OWN_API_MAX_BODY_BYTES = 64 * 1024;

export type EndpointMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

export interface EndpointCall {
  request: RequestContext;
  /** Who asks, as authentication found out (`nobody` only reaches a public endpoint). */
  who: Identity;
  /** The path's named parts, decoded. */
  params: Record<string, string>;
  /** The JSON body (undefined for a GET, or a request without one). */
  body: unknown;
}

export interface Endpoint {
  method: EndpointMethod;
  /** `/api/sign-in/password`, or with named parts: `/api/people/:id`. */
  path: string;
  /** Answered to anyone, signed in or not: the health check, the sign-in itself. */
  public?: boolean;
  /**
   * Asked by a page on its own, on a timer (the navigation's counts): the session is checked but not marked
   * used, so an open tab alone never keeps an idle session alive.
   */
  background?: boolean;
  /** A larger bound than OWN_API_MAX_BODY_BYTES for this endpoint alone (a new import's file). */
  maxBodyBytes?: number;
  handle(call: EndpointCall): void | Promise<void>;
}

/** Sends `value` as JSON with `status`, never cached. */
export function sendJson(res: ServerResponse, status: number, value: unknown): void {
  const body = JSON.stringify(value);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(body),
    'cache-control': 'no-store',
  });
  // Node leaves the body out of an answer to HEAD.
  res.end(body);
}

/** The body as `schema` reads it, or undefined after answering 400 with what is wrong, field by field. */
export function parseBody<S extends z.ZodMiniType>(res: ServerResponse, schema: S, body: unknown, message: string): z.infer<S> | undefined {
  const parsed = schema.safeParse(body);
  if (parsed.success) return parsed.data;
  const details: ErrorDetail[] = parsed.error.issues.map((issue) => ({
    field: issue.path.length > 0 ? issue.path.join('.') : 'body',
    message: issue.message,
  }));
  sendError(res, 400, message, details);
  return undefined;
}

/** An answer with no body: done. */
export function sendDone(res: ServerResponse): void {
  res.writeHead(204, { 'cache-control': 'no-store' });
  res.end();
}

interface Compiled {
  endpoint: Endpoint;
  segments: string[];
}

function matchSegments(pattern: readonly string[], path: string): Record<string, string> | null {
  const parts = path.split('/');
  if (parts.length !== pattern.length) return null;
  const params: Record<string, string> = {};
  for (const [index, want] of pattern.entries()) {
    const part = parts[index] ?? '';
    if (want.startsWith(':')) {
      let decoded: string;
      try {
        decoded = decodeURIComponent(part);
      } catch {
        return null;
      }
      if (decoded === '') return null;
      params[want.slice(1)] = decoded;
    } else if (part !== want) {
      return null;
    }
  }
  return params;
}

/** Reads a JSON body of at most `limit` bytes; answers 400, 413 or 415 itself and resolves to a miss. */
async function readBody(req: IncomingMessage, res: ServerResponse, limit: number): Promise<{ ok: true; body: unknown } | { ok: false }> {
  // Declared, not pending: a body that arrived whole while authentication looked the session up is still to be read.
  if (!bodyDeclared(req)) return { ok: true, body: undefined };
  const declared = Number(req.headers['content-length'] ?? 0);
  if (declared > limit) {
    refuse(req, res, 413, `The body is larger than this endpoint takes (${limit} bytes).`);
    return { ok: false };
  }
  const type = (req.headers['content-type'] ?? '').split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') {
    refuse(req, res, 415, 'The body must be JSON (Content-Type: application/json).', [
      { field: 'content-type', message: 'must be application/json' },
    ]);
    return { ok: false };
  }
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let over = false;
    req.on('data', (chunk: Buffer) => {
      if (over) return;
      size += chunk.length;
      if (size <= limit) {
        chunks.push(chunk);
        return;
      }
      // Declared smaller than it is: refused as it overflows; the rest is drained within refuse's bounds.
      over = true;
      chunks.length = 0;
      refuse(req, res, 413, `The body is larger than this endpoint takes (${limit} bytes).`);
      resolve({ ok: false });
    });
    req.on('error', () => {
      if (!over) resolve({ ok: false });
    });
    req.on('end', () => {
      if (over) return;
      try {
        resolve({ ok: true, body: JSON.parse(Buffer.concat(chunks).toString('utf8')) as unknown });
      } catch {
        sendError(res, 400, 'The body is not JSON.', [{ field: 'body', message: 'must be JSON' }]);
        resolve({ ok: false });
      }
    });
  });
}

export function createOwnApi(endpoints: readonly Endpoint[]) {
  const compiled: Compiled[] = endpoints.map((endpoint) => ({ endpoint, segments: endpoint.path.split('/') }));

  /** The endpoint of `method` (HEAD as GET) and `path`, with its named parts; undefined when none. */
  const find = (method: string, path: string): { endpoint: Endpoint; params: Record<string, string> } | undefined => {
    const wanted = method === 'HEAD' ? 'GET' : method;
    for (const { endpoint, segments } of compiled) {
      if (endpoint.method !== wanted) continue;
      const params = matchSegments(segments, path);
      if (params) return { endpoint, params };
    }
    return undefined;
  };

  return {
    find,
    /** Answers a request under /api that authentication let through. */
    answer(request: RequestContext): void {
      const { req, res, method, path } = request;
      const found = find(method, path);
      if (!found) {
        sendError(res, 404, `${method} ${path} is not an endpoint of this server.`);
        return;
      }
      const who: Identity = request.who ?? { kind: 'nobody' };
      void (async () => {
        const body = await readBody(req, res, found.endpoint.maxBodyBytes ?? OWN_API_MAX_BODY_BYTES);
        if (!body.ok) return;
        await found.endpoint.handle({ request, who, params: found.params, body: body.body });
      })().catch((error: unknown) => {
        console.error(`site-admin: ${method} ${path} failed`, error);
        sendError(res, 500, 'site-admin’s server could not do this; nothing was changed that the answer does not say.');
      });
    },
  };
}

export type OwnApi = ReturnType<typeof createOwnApi>;
