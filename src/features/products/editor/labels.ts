/**
 * The label configuration (../field-labels.ts) in the shape the editor's lists use: by array index
 * (form order) rather than by the contract's slot number.
 */
import {
  FIELD_LABELS,
  inventoryLabels,
  optionFieldLabels,
  optionPriceTierLabels,
  productFieldLabels,
  productPriceTierLabels,
} from '../field-labels';

export const productFieldLabel = (index: number) => productFieldLabels()[index]?.label ?? `Product field ${index + 1}`;
export const productFieldMultiline = (index: number) => productFieldLabels()[index]?.multiline ?? false;
export const productTierLabels = () => productPriceTierLabels().map((tier) => tier.label);
export const optionTierLabels = () => optionPriceTierLabels().map((tier) => tier.label);
export const inventoryLabel = (index: number) => inventoryLabels()[index]?.label ?? `Inventory ${index + 1}`;
export const optionFieldLabel = (index: number) => optionFieldLabels()[index]?.label ?? `Option field ${index + 1}`;
export const optionInventoryLabel = () => FIELD_LABELS.optionInventory;

/** The tiers' hints as one sentence under a grid, e.g. "Tier 1: likely the price charged at checkout." */
function hints(tiers: readonly { label: string; hint?: string }[]) {
  return tiers
    .filter((tier) => tier.hint)
    .map((tier) => `${tier.label}: ${tier.hint}.`)
    .join(' ');
}
export const productTierDescription = () => hints(productPriceTierLabels());
export const optionTierDescription = () => hints(optionPriceTierLabels());
