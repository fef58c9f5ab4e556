/**
 * Reads a form and case identifier out of whatever support staff paste into the form box: an app link
 * (`https://host/cases/3/48217`, `/cases/3/48217`), an API path (`forms/3/cases/48217`) or `3/48217`.
 * It only finds the two parts; whether they can be identifiers is the lookup form's check.
 */
export interface CaseRef {
  form: string;
  id: string;
}

const SCHEME = /^[a-z][a-z0-9+.-]*:\/\//i;

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment).trim();
  } catch {
    // A lone "%" is not an escape: keep the text as typed.
    return segment.trim();
  }
}

function pathOf(text: string): string | null {
  if (!SCHEME.test(text)) return text.replace(/[?#].*$/, '');
  try {
    return new URL(text).pathname;
  } catch {
    return null;
  }
}

export function parseCaseLink(input: string): CaseRef | null {
  const text = input.trim();
  if (!text.includes('/')) return null;
  const path = pathOf(text);
  if (path === null) return null;
  const parts = path
    .split('/')
    .map(decode)
    .filter((part) => part !== '');

  // The API's own path: .../forms/<form>/cases/<id>
  for (let i = 0; i + 3 < parts.length; i += 1) {
    if (parts[i] === 'forms' && parts[i + 2] === 'cases') return ref(parts[i + 1], parts[i + 3]);
  }
  // This app's deep link: .../cases/<form>/<id>, the last segments of the path.
  const at = parts.lastIndexOf('cases');
  if (at >= 0 && at === parts.length - 3) return ref(parts[at + 1], parts[at + 2]);
  // Plain `form/id`; not the start of a path (`/cases/3` is a link cut short).
  if (parts.length === 2 && !SCHEME.test(text) && !text.startsWith('/') && parts[0] !== 'cases' && parts[0] !== 'forms') {
    return ref(parts[0], parts[1]);
  }
  return null;
}

function ref(form: string | undefined, id: string | undefined): CaseRef | null {
  return form && id ? { form, id } : null;
}

/** What the form box held, read as a form identifier. */
export interface FormBoxReading {
  form: string;
  /** What was typed, when it was read as something else (`form_3` as `3`); null when taken as typed. */
  readFrom: string | null;
}

const SCHEMA_NAME = /^form_(\d{1,64})$/i;

/**
 * The API's `{form}` is the form's number (`3`); people often have its schema name (`form_3`), as the
 * case record itself names it. The form box reads the schema name as the number; anything else as typed.
 */
export function readFormBox(text: string): FormBoxReading {
  const match = SCHEMA_NAME.exec(text);
  return match?.[1] ? { form: match[1], readFrom: text } : { form: text, readFrom: null };
}
