import { describe, expect, it } from 'vitest';
import { caseIdentity } from './case-identity';

describe('caseIdentity', () => {
  it('uses the documented fields', () => {
    const identity = caseIdentity(
      { id: '48217', name: 'form_3', form_name: 'Contact us', created_at: 1761955200, properties: {} },
      '3',
      '48217',
    );
    expect(identity).toMatchObject({ formLabel: 'Contact us', schemaName: 'form_3', caseId: '48217' });
    expect(identity.submitted?.date.toISOString()).toBe('2025-11-01T00:00:00.000Z');
  });

  it('falls back to the schema name, then to the identifiers looked up', () => {
    expect(caseIdentity({ name: 'form_7' }, '7', '1')).toMatchObject({ formLabel: 'form_7', caseId: '1', submitted: null });
    expect(caseIdentity({}, '7', '48260')).toEqual({
      formLabel: 'Form 7',
      formName: null,
      schemaName: null,
      caseId: '48260',
      submitted: null,
    });
    expect(caseIdentity({ id: 99, name: 'Alice Smith' }, '7', '99')).toMatchObject({ formLabel: 'Form 7', schemaName: null, caseId: '99' });
  });

  it('reads other submission keys and ISO dates', () => {
    expect(caseIdentity({ submitted_at: '2026-01-02T03:04:05Z' }, '1', '2').submitted?.date.toISOString()).toBe('2026-01-02T03:04:05.000Z');
    expect(caseIdentity({ created_at: 'yesterday' }, '1', '2').submitted).toBeNull();
  });
});
