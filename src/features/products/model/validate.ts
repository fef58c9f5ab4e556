/**
 * The client-side check before sending: exactly the contract's rules, applied to the body the codec
 * would send, with their paths turned into form paths. Nothing here invents a rule of its own.
 * `productResolver` hands the same check to react-hook-form, so `trigger` marks the fields; the review
 * lists the same problems.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import type { Resolver } from 'react-hook-form';
import * as z from 'zod/mini';
import type { WireProductUpdate } from '@/contract/products';
import { validateProduct } from '@/contract/rules';
import { encodeProduct, type FormProblem, type ProductSettings } from './codec';
import { wireFieldToFormPath } from './error-paths';
import type { ProductForm } from './product-form';
import { stepOfPath, type StepId } from './registry';

/** Cells and dates the codec could not read, then the contract's 400/422 details (path "" when unmappable). */
export function validateProductForm(form: ProductForm, settings: ProductSettings): FormProblem[] {
  const { body, problems } = encodeProduct(form, settings);
  // The platform's ids of an opened product's attributes and options are not the create's fields: the
  // product is checked by the create's rules without them (an update's ids are checked by the server).
  const check = validateProduct(body.attributes?.some((a) => a.id || a.items?.some((o) => o.id)) ? withoutIds(body) : body);
  const contract = check.ok
    ? []
    : check.details.map((detail) => {
        const path = wireFieldToFormPath(settings.fields, detail.field);
        // No field will show it, so the message names the wire field itself.
        return path === null ? { path: '', message: `${detail.field}: ${detail.message}` } : { path, message: detail.message };
      });
  return [...problems, ...contract];
}

function withoutIds(body: WireProductUpdate): WireProductUpdate {
  return {
    ...body,
    attributes: body.attributes?.map(({ id: _id, items, ...attribute }) => ({
      ...attribute,
      ...(items ? { items: items.map(({ id: _optionId, ...option }) => option) } : {}),
    })),
  };
}

/** The problems a step shows; path "" and paths no step owns belong to review. */
export function problemsForStep(problems: readonly FormProblem[], step: StepId): FormProblem[] {
  return problems.filter((problem) => stepOfPath(problem.path) === step);
}

const pathSegments = (path: string) => path.split('.').map((part) => (/^\d+$/.test(part) ? Number(part) : part));

/**
 * The form's resolver: the contract's rules, read through the codec in the person's locale, as a zod
 * refinement of values of the form's type (product-form.ts). The form always has its shape, so its schema
 * is not checked again: that would double a check of a 500-option product (about 10 → 21 ms), which runs
 * on every committed price cell. `onChecked` gets every problem of the last whole check, those no field
 * shows too, so the review lists them without checking the product a second time.
 */
export function productResolver(settings: ProductSettings, onChecked?: (problems: FormProblem[]) => void): Resolver<ProductForm> {
  const schema = z.custom<ProductForm>().check(
    z.superRefine((form: ProductForm, ctx) => {
      const problems = validateProductForm(form, settings);
      onChecked?.(problems);
      for (const problem of problems) {
        // A problem no field shows is listed by the review, not attached to the form.
        if (problem.path) ctx.addIssue({ code: 'custom', message: problem.message, path: pathSegments(problem.path), input: form });
      }
    }),
  );
  return zodResolver(schema, undefined, { mode: 'sync' });
}
