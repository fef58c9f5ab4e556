import { describe, expect, it } from 'vitest';
import { DATE_REASONS } from './dates';
import { MONEY_REASONS } from './money';
import { emptyAttribute, emptyOption, emptyPriceGrid, emptyProduct, type ProductForm } from './product-form';
import { problemsForStep, validateProductForm } from './validate';
import { settingsForLocale } from './codec';

const EN = settingsForLocale('en-US');

function fullProduct(): ProductForm {
  const prices = emptyPriceGrid('product');
  prices.usd = ['19.99', '24.99', '', ''];
  prices.nzd = ['32.50', '', '', ''];
  const optionPrices = emptyPriceGrid('option');
  optionPrices.usd = ['2.00', ''];
  return {
    ...emptyProduct(),
    name: 'Linen throw',
    slug: 'linen-throw',
    slugEdited: true,
    weighting: '10',
    releaseAt: '2026-01-01 00:00:00',
    expiryAt: '2027-01-01 00:00:00',
    categories: ['158198', '158199'],
    secureZones: ['42'],
    fields: ['Soft washed linen', '/images/throw.jpg', 'LT-01', '', ''],
    inventory: ['1', '', ''],
    prices,
    attributes: [
      {
        ...emptyAttribute(),
        name: 'Colour',
        options: [
          { ...emptyOption(), name: 'Sand', prices: optionPrices, inventory: '12' },
          { ...emptyOption(), name: 'Olive', inventory: '0' },
        ],
      },
    ],
  };
}

const paths = (form: ProductForm) => validateProductForm(form, EN).map((p) => p.path);

describe('validateProductForm', () => {
  it('finds no problem in a valid full product', () => {
    expect(validateProductForm(fullProduct(), EN)).toEqual([]);
  });

  it('an empty name is a problem of the name, on the basics step', () => {
    const problems = validateProductForm({ ...fullProduct(), name: '  ' }, EN);
    expect(problems).toEqual([{ path: 'name', message: 'Name is required' }]);
    expect(problemsForStep(problems, 'basics')).toEqual(problems);
    expect(problemsForStep(problems, 'pricing')).toEqual([]);
  });

  it('a slug not in the contract’s shape', () => {
    expect(paths({ ...fullProduct(), slug: 'Linen Throw' })).toEqual(['slug']);
    expect(paths({ ...fullProduct(), slug: 'linen--throw' })).toEqual(['slug']);
  });

  it('expiry before release is a problem of the expiry date', () => {
    const problems = validateProductForm({ ...fullProduct(), releaseAt: '2027-01-01 00:00:00', expiryAt: '2026-01-01 00:00:00' }, EN);
    expect(problems).toEqual([{ path: 'expiryAt', message: 'must be after the release date' }]);
  });

  it('an unreadable date is reported once, without a second rule about its order', () => {
    expect(validateProductForm({ ...fullProduct(), expiryAt: '2026-02-30 00:00:00' }, EN)).toEqual([
      { path: 'expiryAt', message: DATE_REASONS.notReal },
    ]);
  });

  it('an unreadable price cell is a problem of that cell, with the parser’s reason', () => {
    const form = fullProduct();
    form.prices.usd = ['12,3,4', '', '', ''];
    const problems = validateProductForm(form, EN);
    expect(problems).toEqual([{ path: 'prices.usd.0', message: MONEY_REASONS.grouping }]);
    expect(problemsForStep(problems, 'pricing')).toEqual(problems);
  });

  it('reads price cells in the given locale', () => {
    const form = fullProduct();
    form.prices.eur = ['1.299,95', '', '', ''];
    expect(validateProductForm(form, settingsForLocale('de-DE'))).toEqual([]);
    form.prices.eur = ['12,999', '', '', ''];
    expect(paths(form)).toEqual([]);
    expect(validateProductForm(form, settingsForLocale('de-DE')).map((p) => p.path)).toEqual(['prices.eur.0']);
  });

  it('two options with the same name: the second option’s name', () => {
    const form = fullProduct();
    const [colour] = form.attributes;
    if (!colour) throw new Error('fixture has an attribute');
    colour.options.push({ ...emptyOption(), name: ' sand ' });
    const problems = validateProductForm(form, EN);
    expect(problems).toEqual([{ path: 'attributes.0.options.2.name', message: expect.stringContaining('option 1') }]);
    expect(problemsForStep(problems, 'attributes')).toEqual(problems);
  });

  it('unnamed attributes and options, and a bad weighting and option inventory', () => {
    const form = fullProduct();
    form.weighting = '1.5';
    form.attributes.push({ ...emptyAttribute(), options: [{ ...emptyOption(), inventory: '-3' }] });
    expect(paths(form)).toEqual(['weighting', 'attributes.1.name', 'attributes.1.options.0.name', 'attributes.1.options.0.inventory']);
  });

  it('categories that are not identifiers, or listed twice', () => {
    expect(paths({ ...fullProduct(), categories: ['abc', '158198', '158198'] })).toEqual(['categories', 'categories']);
  });
});

describe('problemsForStep', () => {
  const problems = [
    { path: 'name', message: 'a' },
    { path: 'fields.1', message: 'b' },
    { path: 'prices.usd.0', message: 'c' },
    { path: 'attributes.0.name', message: 'd' },
    { path: '', message: 'e' },
  ];
  it.each([
    ['basics', ['a']],
    ['placement', ['b']],
    ['pricing', ['c']],
    ['attributes', ['d']],
    ['review', ['e']],
  ] as const)('%s → %j', (step, messages) => {
    expect(problemsForStep(problems, step).map((p) => p.message)).toEqual(messages);
  });
});
