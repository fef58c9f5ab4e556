/**
 * What the controls deep inside the editor read from it, given in one place: the settings every typed
 * value is read with, which attributes and options are expanded, the autosave's change signal, where the
 * product goes and the slugs already created there.
 */
import type { ReactNode } from 'react';
import type { ProductSettings } from '../model/codec';
import { ChangeSignalContext } from './change-signal';
import { CreatedSlugsContext, TargetNameContext, type CreatedSlugs } from './created-slugs';
import { ExpansionContext, type ExpansionStore } from './expansion';
import { ProductSettingsContext } from './settings';

export function EditorContext({
  settings,
  expansion,
  onChange,
  createdSlugs,
  targetName,
  children,
}: {
  settings: ProductSettings;
  expansion: ExpansionStore;
  onChange: () => void;
  createdSlugs: CreatedSlugs | undefined;
  /** Where the product goes ("Harbour Linen"). */
  targetName: string;
  children: ReactNode;
}) {
  return (
    <ProductSettingsContext.Provider value={settings}>
      <ExpansionContext.Provider value={expansion}>
        <ChangeSignalContext.Provider value={onChange}>
          <TargetNameContext.Provider value={targetName}>
            <CreatedSlugsContext.Provider value={createdSlugs}>{children}</CreatedSlugsContext.Provider>
          </TargetNameContext.Provider>
        </ChangeSignalContext.Provider>
      </ExpansionContext.Provider>
    </ProductSettingsContext.Provider>
  );
}
