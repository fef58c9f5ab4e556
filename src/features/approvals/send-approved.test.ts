/**
 * Sending an approved change: the request our server receives (address, method, headers, and the body's
 * bytes exactly as stored, whose SHA-256 is the change's hash), and what a failure says, against a stand-in
 * of our server answering through fetch.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { APPROVED_CHANGE_HEADER, bodyHash } from '@/contract/approvals';
import { ApiError } from '@/lib/api-error';
import { explainSentFailure, sendApprovedChange, type SendableChange } from './send-approved';

interface Received {
  url: string;
  method: string;
  headers: Record<string, string>;
  body: string;
}

function server(status: number, answer: unknown, platformStatus = status) {
  const received: Received[] = [];
  vi.stubGlobal('fetch', (url: string, init: RequestInit) => {
    received.push({ url, method: String(init.method), headers: init.headers as Record<string, string>, body: String(init.body) });
    return Promise.resolve(
      new Response(JSON.stringify(answer), {
        status,
        headers: { 'content-type': 'application/json', 'x-platform-status': String(platformStatus) },
      }),
    );
  });
  return received;
}

afterEach(() => {
  vi.unstubAllGlobals();
});

// Written as no serialiser would write it again: a space before a colon, a number's trailing zero, a key order.
const CREATE_BODY = '{"slug" : "linen-throw","name":"Linen throw","module_field_14/product/price/usd/1":"12900","weight":1.50}';
const UPDATE_BODY = '{ "name": "Linen throw, washed" }';

const create: SendableChange = {
  id: 'c-1',
  site: 'harbour-linen',
  kind: 'create',
  body: CREATE_BODY,
  product: null,
  base: null,
  revertOf: null,
};
const update: SendableChange = {
  id: 'c-2',
  site: 'harbour-linen',
  kind: 'update',
  body: UPDATE_BODY,
  product: '12',
  base: '"sha256-0000000000000000000000000000000000000000000000000000000000000000"',
  revertOf: null,
};

describe('sendApprovedChange', () => {
  it('sends a create’s stored body byte for byte, to the change’s site, with the change’s id', async () => {
    const received = server(200, { id: '77', slug: 'linen-throw' });
    await expect(sendApprovedChange(create)).resolves.toEqual({ id: '77', slug: 'linen-throw' });
    expect(received).toHaveLength(1);
    const [request] = received as [Received];
    expect(request.url).toBe('/api/s/harbour-linen/site/v2/ecommerce/products/create');
    expect(request.method).toBe('POST');
    expect(request.headers[APPROVED_CHANGE_HEADER]).toBe('c-1');
    expect(request.headers['content-type']).toBe('application/json');
    expect(request.body).toBe(CREATE_BODY);
    expect(await bodyHash(request.body)).toBe(await bodyHash(CREATE_BODY));
  });

  it('sends an update to its product with the fingerprint as read in If-Match, and a revert’s entry', async () => {
    const received = server(200, { id: '12', name: 'Linen throw, washed' });
    await sendApprovedChange({ ...update, revertOf: 41 });
    const [request] = received as [Received];
    expect(request.url).toBe('/api/s/harbour-linen/site/v2/ecommerce/products/12');
    expect(request.method).toBe('PUT');
    expect(request.headers['if-match']).toBe(update.base);
    expect(request.headers['x-revert-of']).toBe('41');
    expect(request.headers[APPROVED_CHANGE_HEADER]).toBe('c-2');
    expect(request.body).toBe(UPDATE_BODY);
  });

  it('refuses to send an import itself: its rows go through the import', async () => {
    const received = server(200, {});
    await expect(
      sendApprovedChange({ id: 'c-3', site: 'harbour-linen', kind: 'import', body: null, product: null, base: null, revertOf: null }),
    ).rejects.toThrow(/import/);
    expect(received).toHaveLength(0);
  });
});

describe('explainSentFailure', () => {
  it('says a 412 went back to its author, and nothing was sent', async () => {
    server(412, { error: 'Precondition Failed', message: 'The product changed since it was read.', code: 412 }, 0);
    const error = await sendApprovedChange(update).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(ApiError);
    const text = explainSentFailure(error, 'update');
    expect(text.title).toBe('Not sent: the product changed since');
    expect(text.message).toMatch(/went back to its author/);
    expect(text.message).toMatch(/nothing was sent/);
  });

  it('words our server’s refusal as the editor does: an approval-less write is refused, nothing created', async () => {
    server(
      403,
      { error: 'Forbidden', message: 'Writes of create to Harbour Linen need a second person’s approval.', code: 403, details: [] },
      0,
    );
    const error = await sendApprovedChange(create).catch((caught: unknown) => caught);
    const text = explainSentFailure(error, 'create');
    expect(text.title).toBe('You may not create products on this site');
    expect(text.message).toMatch(/Nothing was created/);
    expect(text.said).toMatch(/second person’s approval/);
  });

  it('says a platform’s 422 did not accept the product', async () => {
    server(422, { error: 'Unprocessable', message: 'slug taken', code: 422, details: [{ field: 'slug', message: 'is taken' }] });
    const error = await sendApprovedChange(create).catch((caught: unknown) => caught);
    const text = explainSentFailure(error, 'create');
    expect(text.title).toMatch(/did not accept the product/);
    expect(text.details).toEqual([{ field: 'slug', message: 'is taken' }]);
  });
});
