/**
 * The field table's code, with the virtual list it is built on (some 11 KB gzip together), is loaded
 * when a case is looked up rather than with the Cases page, which stays as light as it was. It loads
 * beside the lookup's request, so it is normally there before the answer; if not, the case waits for
 * it in its background render, behind the loading placeholder.
 */
import { memo, use } from 'react';
import type { FieldTableProps } from './field-table';

type FieldTableModule = typeof import('./field-table');

let loaded: FieldTableModule | undefined;
let loading: Promise<FieldTableModule> | undefined;

/** Starts loading the table's code (once; again after a failure); resolves when it is there. */
export function loadFieldTable(): Promise<FieldTableModule> {
  loading ??= import('./field-table').then(
    (module) => (loaded = module),
    (error: unknown) => {
      loading = undefined;
      throw error;
    },
  );
  return loading;
}

/** The field table, once its code is loaded (at once when it already is). */
export const LazyFieldTable = memo(function LazyFieldTable(props: FieldTableProps) {
  const { FieldTable } = loaded ?? use(loadFieldTable());
  return <FieldTable {...props} />;
});
