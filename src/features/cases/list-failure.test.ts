import { describe, expect, it } from 'vitest';
import { apiErrors } from '@/lib/api-error';
import { explainFailure } from '@/lib/api-error-class';
import { listFailureWords } from './list-failure';

const body = (message = 'msg', details: { field: string; message: string }[] = []) => ({ message, details });
const explainList = (error: unknown) => explainFailure(error, { kind: 'other', textOf: listFailureWords('21') });

describe('a failed list of a form’s cases, in words', () => {
  it('says the platform did not take the list’s query for its 422, with its details', () => {
    const details = [{ field: 'filter', message: 'is not a field of the form' }];
    const view = explainList(apiErrors.answered(422, 422, body('Invalid', details)));
    expect(view.title).toBe('The platform did not accept the list’s query');
    expect(view.message).toContain('The filter or the form identifier “21” is not one it takes.');
    expect(view.details).toEqual(details);
  });

  it('says who may not list cases for our server’s 403', () => {
    expect(explainList(apiErrors.answered(403, null, body('No'))).title).toBe('You may not list cases on this site');
  });

  it('speaks of the list, not a lookup, where a lookup’s words would otherwise be used', () => {
    const view = explainList(apiErrors.answered(400, 400, body('Bad')));
    expect(view.title).toMatch(/^The list failed/);
    expect(`${view.title} ${view.message}`).not.toMatch(/lookup/i);
  });
});
