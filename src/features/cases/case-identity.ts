/**
 * What identifies a case in the header, from whatever the record holds: the documented fields (id, name,
 * form_name, created_at) when present, else the identifiers the user looked up.
 */
import type { FormCase } from '@/contract/site-api';
import { isExactNumber } from '@/lib/exact-number';
import { classifyValue } from './classify-value';

export interface CaseIdentity {
  /** The form's display name, or its schema name, or "Form 3". */
  formLabel: string;
  formName: string | null;
  schemaName: string | null;
  caseId: string;
  submitted: { date: Date; dateOnly: boolean } | null;
}

const SUBMITTED_KEYS = ['created_at', 'submitted_at', 'createdAt', 'submittedAt', 'created', 'date_created', 'date'];

function text(value: unknown): string | null {
  if (typeof value === 'string' && value.trim() !== '') return value.trim();
  if (typeof value === 'number' && Number.isFinite(value)) return String(value);
  if (isExactNumber(value)) return value.toString();
  return null;
}

/** `profileName`: the form's name in the site profile, used when the record names no form. */
export function caseIdentity(record: FormCase, form: string, id: string, profileName?: string): CaseIdentity {
  const formName = text(record.form_name);
  // `name` is the schema name (`form_3`) in the documented record; elsewhere it may be a person's name.
  const name = text(record.name);
  const documented = formName !== null || (typeof record.properties === 'object' && record.properties !== null);
  const schemaName = name !== null && (documented || /^form_/i.test(name)) ? name : null;
  let submitted: CaseIdentity['submitted'] = null;
  for (const key of SUBMITTED_KEYS) {
    const kind = classifyValue(record[key], key);
    if (kind.kind === 'date') {
      submitted = { date: kind.date, dateOnly: kind.dateOnly };
      break;
    }
  }
  return {
    formLabel: formName ?? profileName ?? schemaName ?? `Form ${form}`,
    formName,
    schemaName,
    caseId: text(record.id) ?? id,
    submitted,
  };
}
