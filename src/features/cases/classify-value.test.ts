import { describe, expect, it } from 'vitest';
import { parseExactJson } from '@/lib/exact-json';
import { isJsonObject } from '@/contract/site-api-basics';
import { classifyValue, isDateKey } from './classify-value';

const kindOf = (value: unknown, key?: string) => classifyValue(value, key).kind;

describe('classifyValue', () => {
  it('shows empty values as empty, each with what it is', () => {
    expect(classifyValue(null)).toEqual({ kind: 'empty', description: 'null' });
    expect(classifyValue('')).toEqual({ kind: 'empty', description: 'empty text' });
    expect(classifyValue('   ')).toEqual({ kind: 'empty', description: 'blank text: 3 spaces' });
    expect(classifyValue([])).toEqual({ kind: 'empty', description: 'empty list' });
    expect(classifyValue({})).toEqual({ kind: 'empty', description: 'empty object' });
    expect(classifyValue(undefined)).toEqual({ kind: 'empty', description: 'no value' });
  });

  it('recognises links, addresses and long text', () => {
    expect(classifyValue('https://cdn.example.com/a b')).toEqual({ kind: 'text', text: 'https://cdn.example.com/a b' });
    expect(classifyValue('https://cdn.example.com/x.png')).toEqual({ kind: 'url', href: 'https://cdn.example.com/x.png' });
    expect(kindOf('javascript:alert(1)')).toBe('text');
    expect(kindOf('/uploads/returns/1.jpg')).toBe('text');
    expect(classifyValue('amelia.nguyen@example.com')).toEqual({ kind: 'email', address: 'amelia.nguyen@example.com' });
    expect(kindOf('not@an address')).toBe('text');
    expect(kindOf('Hi,\n\nThanks')).toBe('multiline');
    expect(kindOf('<b>Please</b> call me')).toBe('text');
  });

  it('reads ten-digit integers as epoch seconds unless the key says they are ids or counts', () => {
    const created = classifyValue(1761955200, 'form_field_3_4');
    expect(created).toMatchObject({ kind: 'date', source: 'epoch-seconds' });
    expect(created.kind === 'date' && created.date.toISOString()).toBe('2025-11-01T00:00:00.000Z');
    expect(kindOf(1761955200, 'order_id')).toBe('number');
    expect(kindOf(4155551234, 'phone')).toBe('number');
    expect(kindOf(1761955200, 'userId')).toBe('number');
    expect(kindOf(3, 'form_field_12_3')).toBe('number');
    expect(kindOf(880123, 'x')).toBe('number');
    expect(kindOf(1.5e9 + 0.5)).toBe('number');
  });

  it('reads date keys more widely: small epochs, milliseconds and digit strings', () => {
    expect(classifyValue(0, 'created_at')).toMatchObject({ kind: 'date', source: 'epoch-seconds' });
    expect(classifyValue(1761955200000, 'updatedAt')).toMatchObject({ kind: 'date', source: 'epoch-milliseconds' });
    expect(classifyValue('1767225600', 'release_date')).toMatchObject({ kind: 'date', source: 'epoch-seconds' });
    expect(kindOf('1767225600', 'form_field_3_1')).toBe('text');
    expect(kindOf(-5, 'created_at')).toBe('number');
    expect(isDateKey('created_at')).toBe(true);
    expect(isDateKey('form_field_3_4')).toBe(false);
  });

  it('reads ISO dates, and keeps calendar dates as calendar dates', () => {
    expect(classifyValue('2026-03-01')).toMatchObject({ kind: 'date', dateOnly: true, source: 'iso' });
    const full = classifyValue('2026-03-01T09:30:00.000Z');
    expect(full).toMatchObject({ kind: 'date', dateOnly: false });
    expect(full.kind === 'date' && full.date.toISOString()).toBe('2026-03-01T09:30:00.000Z');
    expect(kindOf('2026-13-01')).toBe('text');
    expect(kindOf('2026-02-31T99:00')).toBe('text');
    expect(kindOf('0999-01-01')).toBe('text');
  });

  it('makes chips of short scalar lists and lists of anything else', () => {
    expect(classifyValue(['Orders', 'Shipping'])).toEqual({ kind: 'chips', items: ['Orders', 'Shipping'] });
    expect(classifyValue([1, true])).toEqual({ kind: 'chips', items: [1, true] });
    expect(kindOf([{ guest: 'A' }])).toBe('list');
    expect(kindOf([['a'], ['b']])).toBe('list');
    expect(kindOf(['a', null])).toBe('list');
    expect(kindOf(['https://example.com/a.png'])).toBe('list');
    expect(kindOf(['line 1\nline 2'])).toBe('list');
  });

  it('opens objects as entries in their order, and keeps booleans and numbers', () => {
    expect(classifyValue({ b: 1, a: 2 })).toEqual({
      kind: 'object',
      entries: [
        ['b', 1],
        ['a', 2],
      ],
    });
    expect(classifyValue(false)).toEqual({ kind: 'boolean', value: false });
    expect(classifyValue(12.5)).toEqual({ kind: 'number', text: '12.5' });
  });

  it('shows numbers a JavaScript number would change exactly as the platform wrote them', () => {
    const record = parseExactJson(
      '{"order_id":12345678901234567890,"price":1.50,"tags":[98765432109876543210,"VIP"],"box":{"n":1e400}}',
    ) as Record<string, unknown>;
    expect(classifyValue(record.order_id, 'order_id')).toEqual({ kind: 'number', text: '12345678901234567890' });
    expect(classifyValue(record.price, 'price')).toEqual({ kind: 'number', text: '1.50' });
    const tags = classifyValue(record.tags);
    expect(tags.kind).toBe('chips');
    expect(tags.kind === 'chips' && tags.items.map(String)).toEqual(['98765432109876543210', 'VIP']);
    expect(classifyValue(record.box)).toMatchObject({ kind: 'object', entries: [['n', expect.anything()]] });
    expect(isJsonObject(record.order_id)).toBe(false);
  });
});
