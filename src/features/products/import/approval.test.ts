/**
 * An import's set asked for approval: each item's body is byte for byte what the run's create or update
 * sends (through the real fetch layer, the platform stood in), its hash changes when any row does, and a
 * started run's rows left to send still hold the approval only while each is as it was asked for.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { bodyHash, importSetHash, type ImportItem, type NewChange } from '@/contract/approvals';
import { DEFAULT_PRODUCT_RECORD_SHAPE, type WireProductUpdate } from '@/contract/products';
import type { WireProduct } from '@/contract/site-api';
import { createProduct } from '@/lib/api-client';
import { changeFor } from '@/test/changes';
import { updateProduct } from '../product-api';
import { importItems, stillApproved } from './approval';

const NEW: WireProduct = {
  name: 'Blue mug',
  slug: 'blue-mug',
  enabled: 'true',
  'module_field_14/product/price/usd/1': '1290',
};
const UPDATE: WireProductUpdate = {
  name: 'Linen throw',
  enabled: 'true',
  attributes: [{ id: '301', name: 'Colour', items: [{ id: '302', name: 'Sage' }] }],
};
const SHAPE = { id: 'uid', options: 'values' };

const plan = (body: WireProduct = NEW) => ({
  keys: [0, 3],
  body: () => body,
  update: (key: number) => (key === 3 ? { id: '12', fingerprint: 'sha256-abc', body: UPDATE } : null),
});

afterEach(() => vi.unstubAllGlobals());

describe('an import’s set for approval', () => {
  it('holds each write’s exact body, as the run’s create and update send it, keyed and in the site’s record shape', async () => {
    const sent: string[] = [];
    vi.stubGlobal('fetch', async (_url: string, init: RequestInit) => {
      sent.push(String(init.body));
      return new Response('{"id":"1"}', { status: 200, headers: { 'content-type': 'application/json' } });
    });
    await createProduct(NEW, undefined, {});
    await updateProduct('12', UPDATE, 'sha256-abc', { envelope: undefined as never, shape: SHAPE });
    const items = importItems(plan(), SHAPE);
    expect(items.map(({ key, method, product, base }) => ({ key, method, product, base }))).toEqual([
      { key: '0', method: 'POST', product: undefined, base: undefined },
      { key: '3', method: 'PUT', product: '12', base: 'sha256-abc' },
    ]);
    expect(items.map((item) => item.body)).toEqual(sent);
    expect(JSON.parse(items[1]?.body ?? '{}')).toMatchObject({ attributes: [{ uid: '301', values: [{ uid: '302' }] }] });
  });

  it('has a hash that changes when any row’s body changes', async () => {
    const before = await importSetHash(importItems(plan(), DEFAULT_PRODUCT_RECORD_SHAPE));
    const same = await importSetHash(importItems(plan(), DEFAULT_PRODUCT_RECORD_SHAPE));
    const changed = await importSetHash(importItems(plan({ ...NEW, name: 'Blue mug ' }), DEFAULT_PRODUCT_RECORD_SHAPE));
    expect(same).toBe(before);
    expect(changed).not.toBe(before);
  });

  it('still holds for a started run whose rows left are as asked for, and not once one of them changed', async () => {
    const items = importItems(plan(), DEFAULT_PRODUCT_RECORD_SHAPE);
    const asked: NewChange = { site: 'main', kind: 'import', importId: 'imp-1', items };
    const change = changeFor(asked, 'ch-1', {
      hash: await importSetHash(items),
      items: await Promise.all(items.map(async (item) => ({ ...item, hash: await bodyHash(item.body) }))),
    });
    expect(await stillApproved(change, items, false)).toBe(true);
    const left: ImportItem[] = items.slice(1);
    // The new product was sent: the update left is the one approved.
    expect(await stillApproved(change, left, false)).toBe(false);
    expect(await stillApproved(change, left, true)).toBe(true);
    const edited = importItems(plan(), DEFAULT_PRODUCT_RECORD_SHAPE)
      .slice(1)
      .map((item) => ({ ...item, body: item.body.replace('Sage', 'Moss') }));
    expect(await stillApproved(change, edited, true)).toBe(false);
  });
});
