/**
 * Where the errors are, so the editor can show them: the paths that carry a message, and the attributes
 * and options to expand so that a field deep in the list can be seen.
 */
import type { FieldErrors } from 'react-hook-form';
import type { ProductForm } from '../model/product-form';

/** Every path that has an error message, e.g. `attributes.0.options.2.name`. */
export function errorPaths(errors: FieldErrors, prefix = ''): string[] {
  const out: string[] = [];
  for (const [key, value] of Object.entries(errors)) {
    if (!value || typeof value !== 'object') continue;
    const path = prefix ? `${prefix}.${key}` : key;
    if ('message' in value && typeof value.message === 'string') out.push(path);
    else out.push(...errorPaths(value as FieldErrors, path));
  }
  return out;
}

/** Keys of the attributes and options a path lies in, so they can be expanded to show it. */
export function keysAlong(values: ProductForm, path: string): string[] {
  const match = /^attributes\.(\d+)(?:\.options\.(\d+))?/.exec(path);
  if (!match) return [];
  const attribute = values.attributes[Number(match[1])];
  if (!attribute) return [];
  const option = match[2] === undefined ? undefined : attribute.options[Number(match[2])];
  return option ? [attribute.key, option.key] : [attribute.key];
}
