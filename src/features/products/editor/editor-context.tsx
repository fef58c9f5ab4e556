/**
 * What the controls deep inside the editor read from it, given in one place: the settings every typed
 * value is read with, which attributes and options are expanded, and the autosave's change signal.
 */
import type { ReactNode } from 'react';
import type { ProductSettings } from '../model/codec';
import { ChangeSignalContext } from './change-signal';
import { ExpansionContext, type ExpansionStore } from './expansion';
import { ProductSettingsContext } from './settings';

export function EditorContext({
  settings,
  expansion,
  onChange,
  children,
}: {
  settings: ProductSettings;
  expansion: ExpansionStore;
  onChange: () => void;
  children: ReactNode;
}) {
  return (
    <ProductSettingsContext.Provider value={settings}>
      <ExpansionContext.Provider value={expansion}>
        <ChangeSignalContext.Provider value={onChange}>{children}</ChangeSignalContext.Provider>
      </ExpansionContext.Provider>
    </ProductSettingsContext.Provider>
  );
}
