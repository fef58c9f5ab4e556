/**
 * How the open editor is used, for the controls deep inside it: creating a product, correcting one that
 * exists on the platform (removing an attribute or option then switches it off on save, because the
 * platform cannot delete either), or showing one read-only (a product the editor cannot represent
 * faithfully: every control off, so nothing can be changed and nothing dropped).
 */
import { createContext, useContext, type ReactNode } from 'react';
import classes from './editing.module.css';

export interface Editing {
  /** The product exists on the platform: the form is a correction of it. */
  existing: boolean;
  readOnly: boolean;
}

export const EditingContext = createContext<Editing>({ existing: false, readOnly: false });

export const useEditing = (): Editing => useContext(EditingContext);

/**
 * Its controls off when the editor is read-only: a fieldset disables every input, select and button
 * inside it (the browser's own rule, so no control can be missed), while the rows' expand buttons stay
 * outside it, so every value can still be looked at.
 */
export function ReadOnlyFieldset({ children }: { children: ReactNode }) {
  const { readOnly } = useEditing();
  if (!readOnly) return <>{children}</>;
  return (
    <fieldset disabled className={classes.fieldset}>
      {children}
    </fieldset>
  );
}
