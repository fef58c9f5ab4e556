import { describe, expect, it } from 'vitest';
import { platformIdOf } from './created-products-endpoints';

describe('the platform’s id of a product created', () => {
  it('is the top-level id of the platform’s answer', () => {
    expect(platformIdOf('{"id":"9001","name":"Linen throw"}')).toBe('9001');
  });
  it('is never an id nested in the answer, wherever it stands', () => {
    // A category sent as the spec's objects comes back before the product's own id.
    const answer = '{"attributes":[{"id":"77"}],"category_array":[{"id":"158198"}],"id":"9001","name":"Linen throw"}';
    expect(platformIdOf(answer)).toBe('9001');
    expect(platformIdOf('{"category_array":[{"id":"158198"}],"name":"Linen throw"}')).toBeNull();
    expect(platformIdOf('{"product":{"id":"9001"}}')).toBeNull();
  });
  it('is none for an answer that is not JSON, or an id that is not short text', () => {
    expect(platformIdOf('{"id":"9001"')).toBeNull();
    expect(platformIdOf(undefined)).toBeNull();
    expect(platformIdOf('["9001"]')).toBeNull();
    expect(platformIdOf('{"id":9001}')).toBeNull();
    expect(platformIdOf('{"id":""}')).toBeNull();
    expect(platformIdOf(`{"id":"${'9'.repeat(65)}"}`)).toBeNull();
    expect(platformIdOf('{"id":"with \\"quotes\\""}')).toBe('with "quotes"');
  });
});
