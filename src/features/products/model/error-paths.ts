/**
 * Wire paths (`details[].field` of the contract's rules and of the server's 400/422) → form paths, so a
 * server error lands on the field the user typed into. Read off the field registry.
 */
import type { ErrorDetail } from '@/contract/site-api';
import type { FormProblem } from './codec';
import { fieldByWire, type Scope, type SiteFields } from './registry';

const INDEX = '(0|[1-9]\\d*)';
const ATTRIBUTE_FIELD = new RegExp(`^attributes\\[${INDEX}\\]\\.(.+)$`);
const OPTION_FIELD = new RegExp(`^attributes\\[${INDEX}\\]\\.items\\[${INDEX}\\]\\.(.+)$`);
// A list is one field in the editor, so an element of it (`category_array[2].id`) maps to the list.
const LIST_ELEMENT = /^(.+?)\[(?:0|[1-9]\d*)\](?:\.id)?$/;

/** The form path (relative to its scope) of a wire key inside one object of that scope. */
function pathInScope(fields: SiteFields, scope: Scope, field: string): string | null {
  const def = fieldByWire(fields, scope, field);
  if (def) return def.path;
  const element = LIST_ELEMENT.exec(field);
  const list = element ? fieldByWire(fields, scope, element[1] ?? '') : undefined;
  return list?.kind === 'references' ? list.path : null;
}

/**
 * The form path of a wire path, or null when it names no single editable field
 * (`body`, `Content-Type`, `attributes[1]`, `attributes[1].items`, unknown keys).
 */
export function wireFieldToFormPath(fields: SiteFields, field: string): string | null {
  const option = OPTION_FIELD.exec(field);
  if (option) {
    const inner = pathInScope(fields, 'option', option[3] ?? '');
    return inner === null ? null : `attributes.${option[1]}.options.${option[2]}.${inner}`;
  }
  const attribute = ATTRIBUTE_FIELD.exec(field);
  if (attribute) {
    const inner = pathInScope(fields, 'attribute', attribute[2] ?? '');
    return inner === null ? null : `attributes.${attribute[1]}.${inner}`;
  }
  return pathInScope(fields, 'product', field);
}

/** Splits server details into errors for form fields and the rest (shown in a summary). */
export function mapServerDetails(
  fields: SiteFields,
  details: readonly ErrorDetail[],
): { fieldErrors: FormProblem[]; unmapped: ErrorDetail[] } {
  const fieldErrors: FormProblem[] = [];
  const unmapped: ErrorDetail[] = [];
  for (const detail of details) {
    const path = wireFieldToFormPath(fields, detail.field);
    if (path === null) unmapped.push(detail);
    else fieldErrors.push({ path, message: detail.message });
  }
  return { fieldErrors, unmapped };
}
