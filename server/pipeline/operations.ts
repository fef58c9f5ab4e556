/**
 * The operation allowlist: only the two operations of the spec go on to a site's platform, a case
 * lookup and a product create, and the platform's documented list of a form's cases; everything else is
 * answered here and never reaches the upstream. A lookup or a list must carry no body, and a create no
 * more than MAX_BODY_BYTES by its declared length (one that declares less and sends more is cut off by the
 * proxy as it counts). A list's query is checked parameter by parameter (src/contract/case-list.ts) and
 * sent on as rebuilt from what was checked.
 */
import { checkCaseListQuery, formIdentifierViolations } from '../../src/contract/case-list';
import { caseIdentifierViolations } from '../../src/contract/identifiers';
import { checkProductListQuery, productIdViolations } from '../../src/contract/products';
import type { ErrorDetail } from '../../src/contract/site-api';
import { bodyDeclared, refuse } from '../answers';
import type { Operation, Step } from './context';

/** Decodes one path segment; null for one that cannot be a segment (undecodable, a dot segment, a slash). */
function decodeSegment(raw: string): string | null {
  let decoded: string;
  try {
    decoded = decodeURIComponent(raw);
  } catch {
    return null;
  }
  if (decoded === '' || decoded === '.' || decoded === '..') return null;
  if (/[/\\]/.test(decoded)) return null;
  return decoded;
}

/**
 * Matches the raw (still encoded) path after a site's /site/v2 (and a list's raw query) against the
 * operations we forward: the two of the spec and the list of a form's cases. A lookup or a list whose
 * identifiers the contract's identifier rule rejects (`%252e%252e`, fullwidth dots, `%00`, CR/LF, ...) is
 * refused with the rule's details: forwarding it would be safe only against a platform that never decodes
 * a path twice. A list's query is refused with each parameter's problem (src/contract/case-list.ts).
 */
export function matchRoute(
  method: string,
  rawPath: string,
  rawQuery = '',
): Operation | { refused: ErrorDetail[]; name?: 'list-form-cases' | 'list-products' | 'get-product' | 'update-product' } | null {
  const list = /^\/forms\/([^/]+)\/cases$/.exec(rawPath);
  if (list && method === 'GET') {
    const form = decodeSegment(list[1] ?? '');
    if (form === null) return null;
    const refused = formIdentifierViolations(form);
    const query = checkCaseListQuery(rawQuery);
    if (refused.length > 0 || !query.ok) return { refused: [...refused, ...(query.ok ? [] : query.details)], name: 'list-form-cases' };
    return { name: 'list-form-cases', method: 'GET', upstreamPath: `/forms/${form}/cases${query.search}` };
  }
  const forms = /^\/forms\/([^/]+)\/cases\/([^/]+)$/.exec(rawPath);
  if (forms && method === 'GET') {
    const form = decodeSegment(forms[1] ?? '');
    const id = decodeSegment(forms[2] ?? '');
    if (form === null || id === null) return null;
    const refused = caseIdentifierViolations(form, id);
    if (refused.length > 0) return { refused };
    // The rule admits only letters, digits, "_" and "-": nothing that needs encoding.
    return { name: 'get-form-case', method: 'GET', upstreamPath: `/forms/${form}/cases/${id}` };
  }
  if (rawPath === '/ecommerce/products/create' && method === 'POST') {
    return { name: 'create-product', method: 'POST', upstreamPath: '/ecommerce/products/create' };
  }
  if (rawPath === '/ecommerce/products' && method === 'GET') {
    const query = checkProductListQuery(rawQuery);
    if (!query.ok) return { refused: query.details, name: 'list-products' };
    return { name: 'list-products', method: 'GET', upstreamPath: `/ecommerce/products${query.search}` };
  }
  const product = /^\/ecommerce\/products\/([^/]+)$/.exec(rawPath);
  if (product && (method === 'GET' || method === 'PUT')) {
    const id = decodeSegment(product[1] ?? '');
    // `create` is the create's own path, which has no read or update.
    if (id === null || id === 'create') return null;
    const name = method === 'GET' ? 'get-product' : 'update-product';
    const refused = productIdViolations(id);
    if (refused.length > 0) return { refused, name };
    // A platform id is digits alone: nothing that needs encoding.
    return { name, method, upstreamPath: `/ecommerce/products/${id}` };
  }
  return null;
}

export function allowOperation(maxBodyBytes: number): Step {
  return (request, next) => {
    const { req, res, method, path, address } = request;
    if (address.kind !== 'site') {
      next();
      return;
    }
    const query = request.url.indexOf('?');
    const rawQuery = query < 0 ? '' : request.url.slice(query + 1);
    const match = address.operationPath ? matchRoute(method, address.operationPath, rawQuery) : null;
    if (!match) {
      request.operationName = 'not-allowed';
      refuse(req, res, 404, `${method} ${path} is not an operation of Site API v2.`);
      return;
    }
    if ('refused' in match) {
      request.operationName = match.name ?? 'get-form-case';
      const what =
        match.name === 'list-form-cases'
          ? 'The list of cases asked for is not valid'
          : match.name === 'list-products'
            ? 'The list of products asked for is not valid'
            : match.name
              ? 'The product identifier is not valid'
              : 'The form or case identifier is not valid';
      refuse(req, res, 422, `${what}; nothing was sent to the platform.`, match.refused);
      return;
    }
    request.operationName = match.name;
    // Declared, not pending: after authentication's wait, a small body may have arrived whole.
    if (match.method === 'GET' && bodyDeclared(req)) {
      const what =
        { 'list-form-cases': 'case list', 'list-products': 'product list', 'get-product': 'product read' }[match.name as string] ??
        'case lookup';
      refuse(req, res, 400, `A ${what} has no request body.`, [{ field: 'body', message: `must be empty on a ${what}` }]);
      return;
    }
    if (match.method !== 'GET' && Number(req.headers['content-length'] ?? 0) > maxBodyBytes) {
      refuse(req, res, 413, `The request body is larger than ${maxBodyBytes} bytes.`);
      return;
    }
    request.operation = match;
    next();
  };
}
