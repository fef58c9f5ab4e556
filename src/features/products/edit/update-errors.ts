/**
 * The problems a refused update named (400, 422), on the editor's fields. An update's body holds only the
 * attributes and options that change, so `attributes[0].items[2].name` counts in the body, not in the
 * form: each is found again by its platform id (or, for a new one, by its name among the new ones of the
 * form) and renamed to its place in the form; then the create's own mapping (error-paths.ts) puts it on
 * its field. What cannot be found is listed as the server said it.
 */
import type { WireProductUpdate } from '@/contract/products';
import type { ErrorDetail } from '@/contract/site-api';
import type { FormProblem } from '../model/codec';
import { mapServerDetails } from '../model/error-paths';
import type { ProductForm } from '../model/product-form';
import type { SiteFields } from '../model/registry';

const ITEM_PATH = /^attributes\[(0|[1-9]\d*)\](?:\.items\[(0|[1-9]\d*)\])?(.*)$/;

function findItem<T extends { id: string; name: string }>(list: readonly T[], sent: { id?: string; name?: string } | undefined): number {
  if (!sent) return -1;
  if (sent.id) return list.findIndex((item) => item.id === sent.id);
  const name = (sent.name ?? '').trim();
  return list.findIndex((item) => item.id === '' && item.name.trim() === name);
}

/** The form's path of a body's path, or null when the body's item is not in the form. */
export function formPathOfUpdatePath(field: string, body: WireProductUpdate, form: ProductForm): string | null {
  const match = ITEM_PATH.exec(field);
  if (!match) return field;
  const sentAttribute = body.attributes?.[Number(match[1])];
  const a = findItem(form.attributes, sentAttribute);
  const attribute = form.attributes[a];
  if (!attribute) return null;
  if (match[2] === undefined) return `attributes[${a}]${match[3] ?? ''}`;
  const o = findItem(attribute.options, sentAttribute?.items?.[Number(match[2])]);
  return o < 0 ? null : `attributes[${a}].items[${o}]${match[3] ?? ''}`;
}

export function mapUpdateDetails(
  fields: SiteFields,
  body: WireProductUpdate,
  form: ProductForm,
  details: readonly ErrorDetail[],
): { fieldErrors: FormProblem[]; unmapped: ErrorDetail[] } {
  const inForm: ErrorDetail[] = [];
  const lost: ErrorDetail[] = [];
  for (const detail of details) {
    const path = formPathOfUpdatePath(detail.field, body, form);
    if (path === null) lost.push(detail);
    else inForm.push({ ...detail, field: path });
  }
  const mapped = mapServerDetails(fields, inForm);
  // Unmapped ones are listed with the path the server gave, which is what it said.
  const said = new Map(inForm.map((detail, i) => [detail, details.filter((d) => !lost.includes(d))[i] ?? detail]));
  return { fieldErrors: mapped.fieldErrors, unmapped: [...mapped.unmapped.map((detail) => said.get(detail) ?? detail), ...lost] };
}
