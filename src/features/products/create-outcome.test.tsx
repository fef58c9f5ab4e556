/**
 * One table of answers to a create, read the same way by the editor (what it shows, whether Create waits
 * for a confirmation) and by the import (what its queue does with the product).
 */
import { screen } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { apiErrors } from '@/lib/api-error';
import { render } from '@/test/render';
import { CreateFailure } from './create-outcome';
import { meaningOf } from './import/create-queue';

const answer = (status: number, retryAfter: string | null = null, platformStatus: number | null = status) =>
  apiErrors.answered(status, platformStatus, { message: `Answer ${status}` }, retryAfter);

type Row = [name: string, error: unknown, editorTitle: RegExp, importDoes: 'backoff' | 'unknown' | 'rejected' | 'pause'];

const TABLE: Row[] = [
  ['429 with Retry-After', answer(429, '2'), /asked us to slow down/, 'backoff'],
  ['429 without Retry-After', answer(429), /asked us to slow down/, 'backoff'],
  ['503 with Retry-After', answer(503, '5'), /asked us to slow down/, 'backoff'],
  ['503 without Retry-After', answer(503), /can't tell whether the product was created/, 'unknown'],
  ['500', answer(500), /can't tell whether the product was created/, 'unknown'],
  ['no answer', apiErrors.noAnswer(), /can't tell whether the product was created/, 'unknown'],
  ['422', answer(422), /did not accept the product/, 'rejected'],
  ['401 from the platform', answer(401), /refused our server’s credentials/, 'pause'],
];

describe('an answer to a create means one thing in the editor and in the import', () => {
  it.each(TABLE)('%s', (_name, error, editorTitle, importDoes) => {
    render(<CreateFailure error={error} unmapped={[]} onRetry={() => undefined} />);
    expect(screen.getByRole('alert')).toHaveTextContent(editorTitle);
    // Only an unknown outcome asks the person to confirm before Create comes back.
    expect(screen.queryByRole('checkbox', { name: /I checked/ }) !== null).toBe(importDoes === 'unknown');
    const meaning = meaningOf(error, Date.now());
    expect(meaning.kind === 'outcome' ? meaning.outcome.status : meaning.kind).toBe(importDoes);
  });

  it('the editor says how long to wait when the platform said', () => {
    render(<CreateFailure error={answer(503, '5')} unmapped={[]} onRetry={() => undefined} />);
    expect(screen.getByRole('alert')).toHaveTextContent(/not created.*Press Create again in 5 s/);
  });
});
