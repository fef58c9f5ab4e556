/**
 * Options in volume: what one option's prices, fields or stock are copied as, to the other options of
 * its attribute or from the option above. Pure, so what is copied is tested apart from the buttons.
 */
import type { OptionForm } from '../model/product-form';

/** What to copy: an option's price grid, its option fields, its stock, or all of them (never its name). */
export type OptionPart = 'prices' | 'fields' | 'stock' | 'all';

export const PART_WORDS: Readonly<Record<OptionPart, string>> = {
  prices: 'prices',
  fields: 'option fields',
  stock: 'stock',
  all: 'prices, fields and stock',
};

/** The values of `part` of `from`, as form paths relative to an option, each a fresh copy. */
export function partValues(from: OptionForm, part: OptionPart): [path: 'prices' | 'fields' | 'inventory' | 'enabled', value: unknown][] {
  const out: [path: 'prices' | 'fields' | 'inventory' | 'enabled', value: unknown][] = [];
  if (part === 'prices' || part === 'all') out.push(['prices', structuredClone(from.prices)]);
  if (part === 'fields' || part === 'all') out.push(['fields', [...from.fields]]);
  if (part === 'stock' || part === 'all') out.push(['inventory', from.inventory]);
  return out;
}

/** A new option that starts from `previous`: its prices, fields, stock and visibility; a name of its own. */
export function optionLike(previous: OptionForm, fresh: OptionForm): OptionForm {
  return {
    ...fresh,
    enabled: previous.enabled,
    prices: structuredClone(previous.prices),
    fields: [...previous.fields],
    inventory: previous.inventory,
  };
}
