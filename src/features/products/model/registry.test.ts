import { describe, expect, it } from 'vitest';
import { wireAttributeOptionSchema, wireAttributeSchema, wireProductSchema } from '@/contract/site-api';
import { valueAt } from './codec';
import { emptyAttribute, emptyOption, emptyProduct, productFormSchema } from './product-form';
import {
  ATTRIBUTE_FIELDS,
  BASE_FIELDS,
  OPTION_FIELDS,
  PRODUCT_FIELDS,
  describePath,
  pathsOfStep,
  resolveFormPath,
  stepOfPath,
  type FieldDef,
} from './registry';

const keysOf = (schema: { def: { shape: Record<string, unknown> } }) => Object.keys(schema.def.shape).sort();
const wires = (defs: readonly FieldDef[]) => defs.map((def) => def.wire).sort();

describe('the registry and the contract', () => {
  it('names every field of the spec’s product exactly once (attributes are the list of attributes)', () => {
    expect(wires(PRODUCT_FIELDS)).toEqual(keysOf(wireProductSchema).filter((key) => key !== 'attributes'));
  });

  it('names every field of an attribute (items are its options) and of an option', () => {
    expect(wires(ATTRIBUTE_FIELDS)).toEqual(keysOf(wireAttributeSchema).filter((key) => key !== 'items'));
    expect(wires(OPTION_FIELDS)).toEqual(keysOf(wireAttributeOptionSchema));
  });

  it('gives every field its own form path', () => {
    for (const defs of [PRODUCT_FIELDS, ATTRIBUTE_FIELDS, OPTION_FIELDS]) {
      expect(new Set(defs.map((def) => def.path)).size).toBe(defs.length);
    }
  });
});

describe('the form model derived from the registry', () => {
  const typeOf = (def: FieldDef) => (def.kind === 'boolean' ? 'boolean' : def.kind === 'references' ? 'object' : 'string');

  it('has every field at its path, with its kind’s type, and checks as a form', () => {
    const product = emptyProduct();
    for (const def of PRODUCT_FIELDS) expect(typeof valueAt(product, def.path), def.path).toBe(typeOf(def));
    for (const def of ATTRIBUTE_FIELDS) expect(typeof valueAt(emptyAttribute(), def.path), def.path).toBe(typeOf(def));
    for (const def of OPTION_FIELDS) expect(typeof valueAt(emptyOption(), def.path), def.path).toBe(typeOf(def));
    expect(productFormSchema.safeParse({ ...product, attributes: [emptyAttribute()] }).success).toBe(true);
  });

  it('has nothing the registry does not know of, beyond the editor’s own keys', () => {
    const roots = new Set(PRODUCT_FIELDS.map((def) => def.path.split('.')[0]));
    expect(Object.keys(emptyProduct()).filter((key) => !roots.has(key))).toEqual(['slugEdited', 'attributes']);
  });

  it('refuses a stored draft of another shape', () => {
    expect(productFormSchema.safeParse({ ...emptyProduct(), fields: ['only one'] }).success).toBe(false);
    expect(productFormSchema.safeParse({ ...emptyProduct(), enabled: 'true' }).success).toBe(false);
  });
});

describe('steps', () => {
  it.each([
    ['name', 'basics'],
    ['slugEdited', 'basics'],
    ['releaseAt', 'basics'],
    ['categories', 'placement'],
    ['fields.4', 'placement'],
    ['prices.usd.0', 'pricing'],
    ['inventory.2', 'pricing'],
    ['attributes', 'attributes'],
    ['attributes.1.options.2.prices.eur.1', 'attributes'],
    ['', 'review'],
    ['toString', 'review'],
    ['__proto__', 'review'],
  ])('%j belongs to %s', (path, step) => expect(stepOfPath(path)).toBe(step));

  it('a step validates exactly its own fields', () => {
    expect(pathsOfStep(BASE_FIELDS, 'basics')).toEqual(['name', 'slug', 'enabled', 'weighting', 'releaseAt', 'expiryAt']);
    expect(pathsOfStep(BASE_FIELDS, 'placement')).toEqual([
      'categories',
      'secureZones',
      'fields.0',
      'fields.1',
      'fields.2',
      'fields.3',
      'fields.4',
    ]);
    expect(pathsOfStep(BASE_FIELDS, 'pricing')).toHaveLength(3 + 24);
    expect(pathsOfStep(BASE_FIELDS, 'attributes')).toEqual(['attributes']);
  });
});

describe('describePath: what people call a field, counting from 1', () => {
  it.each([
    ['name', 'Name'],
    ['fields.0', 'Product field 1'],
    ['prices.usd.1', 'USD, Display price (RRP)'],
    ['prices.eur.0', 'EUR, Price'],
    ['inventory.2', 'Inventory setting 3'],
    ['attributes.0.name', 'Attribute 1 › Attribute name'],
    ['attributes.1.options.2.prices.nzd.0', 'Attribute 2 › Option 3 › NZD, Added to price'],
    ['attributes.1.options.2.inventory', 'Attribute 2 › Option 3 › Stock'],
    ['attributes.3', 'Attribute 4'],
  ])('%j → %s', (path, words) => expect(describePath(BASE_FIELDS, path)).toBe(words));

  it('resolves positions along the path', () => {
    expect(resolveFormPath(BASE_FIELDS, 'attributes.1.options.2.name')).toMatchObject({
      attribute: 1,
      option: 2,
      def: { scope: 'option', wire: 'name' },
    });
    expect(resolveFormPath(BASE_FIELDS, 'attributes.1.nope')).toBeNull();
  });
});
