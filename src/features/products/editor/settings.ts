/**
 * The product settings (locale and price precision) of the editor that is open, for the controls deep
 * inside it: the grid reads a typed price with the same settings the codec sends it with. There is no
 * default, so no control can fall back to another locale unnoticed.
 */
import { createContext, useContext } from 'react';
import type { ProductSettings } from '../model/codec';

export const ProductSettingsContext = createContext<ProductSettings | null>(null);

export function useProductSettings(): ProductSettings {
  const settings = useContext(ProductSettingsContext);
  if (!settings) throw new Error('useProductSettings needs a ProductSettingsContext provider (the editor gives one)');
  return settings;
}
