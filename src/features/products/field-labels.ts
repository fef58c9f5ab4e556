/**
 * Field labels for this site: THE one place to rename the numbered fields of Site API v2.
 *
 * The platform does not publish what its numbered fields mean (product fields 1-5, price tiers, inventory
 * settings, option fields 2/3/4/6), and each site uses them differently. The defaults below are honest
 * placeholders; an operator who knows how their site uses a field renames it here, e.g.
 * `1: { label: 'Description', multiline: true }`, and every screen of the editor follows.
 * Only labels and hints live here: the wire keys come from src/contract/site-api.ts and never change.
 */
import {
  OPTION_FIELD_SLOTS,
  OPTION_PRICE_TIERS,
  PRODUCT_FIELD_SLOTS,
  PRODUCT_INVENTORY_SLOTS,
  PRODUCT_PRICE_TIERS,
  type Currency,
  type OptionFieldSlot,
  type OptionPriceTier,
  type ProductFieldSlot,
  type ProductInventorySlot,
  type ProductPriceTier,
} from '@/contract/site-api';

export interface FieldLabel {
  label: string;
  /** A short note shown under the label, e.g. what the field probably means. */
  hint?: string;
}

export interface ProductFieldLabel extends FieldLabel {
  /** Edited in a multi-line text area (descriptions, HTML) rather than a one-line input. */
  multiline: boolean;
}

export interface FieldLabels {
  productFields: Record<ProductFieldSlot, ProductFieldLabel>;
  productPriceTiers: Record<ProductPriceTier, FieldLabel>;
  optionPriceTiers: Record<OptionPriceTier, FieldLabel>;
  inventory: Record<ProductInventorySlot, FieldLabel>;
  optionFields: Record<OptionFieldSlot, FieldLabel>;
  optionInventory: FieldLabel;
  currencies: Record<Currency, string>;
}

export const FIELD_LABELS: FieldLabels = {
  productFields: {
    1: { label: 'Product field 1', multiline: true },
    2: { label: 'Product field 2', multiline: true },
    3: { label: 'Product field 3', multiline: false },
    4: { label: 'Product field 4', multiline: false },
    5: { label: 'Product field 5', multiline: false },
  },
  // platform-notes: tier meanings are not published; these hints say only what is likely.
  productPriceTiers: {
    1: { label: 'Tier 1', hint: 'Likely the price charged at checkout' },
    2: { label: 'Tier 2', hint: 'Likely a display-only price, e.g. a "was" price' },
    3: { label: 'Tier 3' },
    4: { label: 'Tier 4' },
  },
  optionPriceTiers: {
    1: { label: 'Tier 1', hint: 'Likely added to the product’s charged price; 0 means no change' },
    2: { label: 'Tier 2' },
  },
  inventory: {
    1: { label: 'Inventory setting 1' },
    2: { label: 'Inventory setting 2' },
    3: { label: 'Inventory setting 3' },
  },
  optionFields: {
    2: { label: 'Option field 2' },
    3: { label: 'Option field 3' },
    4: { label: 'Option field 4' },
    6: { label: 'Option field 6' },
  },
  optionInventory: { label: 'Option inventory', hint: 'Likely the stock of this option: a whole number' },
  currencies: {
    aud: 'Australian dollar',
    cad: 'Canadian dollar',
    eur: 'Euro',
    gbp: 'Pound sterling',
    nzd: 'New Zealand dollar',
    usd: 'US dollar',
  },
};

// Accessors by the contract's slot or tier number (not the form's array index, which starts at 0).
export const productFieldLabel = (slot: ProductFieldSlot): ProductFieldLabel => FIELD_LABELS.productFields[slot];
export const productPriceTierLabel = (tier: ProductPriceTier): FieldLabel => FIELD_LABELS.productPriceTiers[tier];
export const optionPriceTierLabel = (tier: OptionPriceTier): FieldLabel => FIELD_LABELS.optionPriceTiers[tier];
export const inventoryLabel = (slot: ProductInventorySlot): FieldLabel => FIELD_LABELS.inventory[slot];
export const optionFieldLabel = (slot: OptionFieldSlot): FieldLabel => FIELD_LABELS.optionFields[slot];
export const currencyName = (currency: Currency): string => FIELD_LABELS.currencies[currency];

// The same labels in the order of the form model's arrays: element i belongs to the form's index i.
export const productFieldLabels = (): readonly ProductFieldLabel[] => PRODUCT_FIELD_SLOTS.map(productFieldLabel);
export const productPriceTierLabels = (): readonly FieldLabel[] => PRODUCT_PRICE_TIERS.map(productPriceTierLabel);
export const optionPriceTierLabels = (): readonly FieldLabel[] => OPTION_PRICE_TIERS.map(optionPriceTierLabel);
export const inventoryLabels = (): readonly FieldLabel[] => PRODUCT_INVENTORY_SLOTS.map(inventoryLabel);
export const optionFieldLabels = (): readonly FieldLabel[] => OPTION_FIELD_SLOTS.map(optionFieldLabel);
