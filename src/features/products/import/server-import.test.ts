/**
 * The server's statuses as the import page shows them: the server's word wins, and the page keeps its own
 * wording only where both say the same; a status the server no longer has (a product that never reached
 * it) is gone from the page too.
 */
import { describe, expect, it } from 'vitest';
import { mergeStatuses, statusOf } from './server-import';

describe('the server’s statuses in the page', () => {
  it('reads a created product’s body sent and the platform’s answer', () => {
    expect(
      statusOf({ status: 'created', at: 5, createSeq: 12, body: '{"name":"Mug","slug":"mug"}', answer: '{"id":"9","slug":"mug"}' }),
    ).toEqual({ status: 'created', at: 5, body: { name: 'Mug', slug: 'mug' }, answer: { id: '9', slug: 'mug' } });
  });

  it('takes the server’s word, keeping the page’s own where both agree', () => {
    const merged = mergeStatuses(
      {
        '0': { status: 'created', at: 1, createSeq: 3, body: '{"name":"A"}', answer: '{}' },
        '2': { status: 'unknown', at: 1, createSeq: 4, message: 'from the server' },
      },
      {
        '0': { status: 'unknown', message: 'the page lost the answer' },
        '1': { status: 'unknown', message: 'never reached the server' },
        '2': { status: 'unknown', message: 'in the page’s words' },
      },
    );
    expect(merged['0']).toMatchObject({ status: 'created' });
    expect(merged['1']).toBeUndefined();
    expect(merged['2']).toEqual({ status: 'unknown', message: 'in the page’s words' });
  });
});
