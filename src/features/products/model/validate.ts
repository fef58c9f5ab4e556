/**
 * The client-side check before sending: exactly the contract's rules, applied to the body the codec
 * would send, with their paths turned into form paths. Nothing here invents a rule of its own.
 */
import { validateProduct } from '@/contract/rules';
import { encodeProduct, type FormProblem } from './codec';
import { wireFieldToFormPath } from './error-paths';
import type { ProductForm } from './product-form';
import { stepOfPath, type StepId } from './steps';

/** Cells and dates the codec could not read, then the contract's 400/422 details (path "" when unmappable). */
export function validateProductForm(form: ProductForm, locale?: string): FormProblem[] {
  const { body, problems } = encodeProduct(form, locale);
  const check = validateProduct(body);
  const contract = check.ok
    ? []
    : check.details.map((detail) => {
        const path = wireFieldToFormPath(detail.field);
        // No field will show it, so the message names the wire field itself.
        return path === null ? { path: '', message: `${detail.field}: ${detail.message}` } : { path, message: detail.message };
      });
  return [...problems, ...contract];
}

/** The problems a step shows; path "" and paths no step owns belong to review. */
export function problemsForStep(problems: readonly FormProblem[], step: StepId): FormProblem[] {
  return problems.filter((problem) => stepOfPath(problem.path) === step);
}
