/**
 * Products of N attributes × M options, built with the editor's own model functions so the draft has
 * exactly the shape the editor saves, and stored the way the editor stores a draft.
 */
import { emptyAttribute, emptyOption, emptyProduct, type ProductForm } from '../src/features/products/model/product-form';

export const DRAFT_KEY = 'site-admin:product-draft:v1';
/** The draft's step: 3 is Attributes and options, which a restore opens directly. */
export const ATTRIBUTES_STEP = 3;

export interface ProductSize {
  attributes: number;
  options: number;
}

export const sizeLabel = (size: ProductSize) => `${size.attributes}×${size.options}`;

export function buildProduct({ attributes, options }: ProductSize): ProductForm {
  const product = emptyProduct();
  product.name = `Bench product ${attributes}x${options}`;
  product.slug = `bench-product-${attributes}x${options}`;
  product.slugEdited = true;
  product.weighting = '10';
  product.prices.usd[0] = '49.00';
  product.prices.aud[0] = '72.00';
  product.attributes = Array.from({ length: attributes }, (_, a) => {
    const attribute = emptyAttribute();
    attribute.name = `Attribute ${a + 1}`;
    attribute.options = Array.from({ length: options }, (_, o) => {
      const option = emptyOption();
      option.name = `Choice ${o + 1}`;
      option.inventory = String(10 + o);
      // Some prices, as a real product has: a surcharge on every other option.
      if (o % 2 === 1) option.prices.usd[0] = `${o}.50`;
      return option;
    });
    return attribute;
  });
  return product;
}

/** The localStorage value the editor reads on /products/new. */
export function draftJson(size: ProductSize): string {
  return JSON.stringify({ savedAt: Date.now(), step: ATTRIBUTES_STEP, values: buildProduct(size) });
}
