import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readProductRecord, validateProductUpdate, type ProductRecord } from '@/contract/products';
import { validateProduct } from '@/contract/rules';
import { siteInfoOf } from '@/contract/site-info';
import type { SiteConfig } from '@/contract/site-profile';
import { settingsForLocale, settingsForSite } from './codec';
import { openForEdit } from './open-for-edit';
import { diffProduct } from './product-diff';
import { emptyAttribute, emptyOption, type ProductForm } from './product-form';

// Dates read in a zone with daylight saving, so "local" is not UTC by accident (Date follows TZ).
let savedTz: string | undefined;
beforeAll(() => {
  savedTz = process.env.TZ;
  process.env.TZ = 'Europe/Berlin';
});
afterAll(() => {
  if (savedTz === undefined) delete process.env.TZ;
  else process.env.TZ = savedTz;
});

const USD1 = 'module_field_14/product/price/usd/1';
const EUR1 = 'module_field_14/product/price/eur/1';
const OPTION_USD1 = 'module_field_14/product_attribute_option/price/usd/1';
const STOCK = 'module_field_14/product_attribute_option/inventory/1';

const RECORD: ProductRecord = {
  id: '1042',
  name: 'Linen throw',
  slug: 'linen-throw',
  enabled: 'true',
  release_date: '1767225600',
  category_array: [{ id: '158198' }],
  'module_field_14/product_1': 'Soft linen',
  [USD1]: '1999',
  [EUR1]: '1850',
  created_at: '1767225600',
  updated_at: '1767225600',
  attributes: [
    {
      id: '31',
      name: 'Colour',
      enabled: 'true',
      items: [
        { id: '77', name: 'Sand', enabled: 'true', [OPTION_USD1]: '150', [STOCK]: '3' },
        { id: '78', name: 'Olive', enabled: 'true' },
      ],
    },
    { id: '32', name: 'Size', enabled: 'true', items: [{ id: '79', name: 'Large', enabled: 'true' }] },
  ],
};

const EN = settingsForLocale('en-US');
const open = (record: ProductRecord = RECORD, settings = EN) => openForEdit(record, [], settings).form;

function edit(change: (form: ProductForm) => void, settings = EN): ProductForm {
  const form = open(RECORD, settings);
  change(form);
  return form;
}

describe('diffProduct', () => {
  it('finds nothing to send when nothing was edited', () => {
    expect(diffProduct(RECORD, open(), EN)).toEqual({ changes: [], body: null, problems: [] });
  });

  it('a price and an option name: only those, before → after as read and as on the wire, in the smallest body', () => {
    const form = edit((f) => {
      f.prices.usd[0] = '21.50';
      f.attributes[0]!.options[1]!.name = 'Olive green';
    });
    const { changes, body } = diffProduct(RECORD, form, EN);
    expect(changes).toEqual([
      expect.objectContaining({
        kind: 'changed',
        scope: 'product',
        label: 'USD, Price',
        wire: USD1,
        before: '$19.99',
        after: '$21.50',
        beforeWire: '1999',
        afterWire: '2150',
      }),
      expect.objectContaining({
        kind: 'changed',
        scope: 'option',
        label: 'Attribute “Colour” › Option “Olive” › Option name',
        where: 'Attribute “Colour” › Option “Olive”',
        field: 'Option name',
        wire: 'name',
        attributeId: '31',
        optionId: '78',
        before: 'Olive',
        after: 'Olive green',
      }),
    ]);
    expect(body).toEqual({
      name: 'Linen throw',
      enabled: 'true',
      [USD1]: '2150',
      attributes: [{ id: '31', name: 'Colour', items: [{ id: '78', name: 'Olive green' }] }],
    });
    expect(validateProductUpdate(body, validateProduct)).toMatchObject({ ok: true });
  });

  it('formats money in the site’s decimals and the person’s locale, dates in their zone', () => {
    const site: SiteConfig = {
      id: 's',
      name: 'S',
      platform: { sandbox: true, siteId: '1' },
      money: { currencies: ['usd', 'eur'], decimals: 4 },
    };
    const settings = settingsForSite('de-DE', siteInfoOf(site));
    const record: ProductRecord = { ...RECORD, [EUR1]: '185000' };
    const form = openForEdit(record, [], settings).form;
    expect(form.prices.eur[0]).toBe('18.5000');
    form.prices.eur[0] = '19,25';
    form.releaseAt = '02.01.2026 10:00';
    const { changes, body } = diffProduct(record, form, settings);
    expect(changes.map((c) => [c.label, c.before, c.after])).toEqual([
      // 1767225600 is 2026-01-01 00:00 UTC: 01:00 in Berlin.
      ['Release date', '01.01.2026, 01:00:00', '02.01.2026, 10:00:00'],
      ['EUR, Price', '18,5000\u00a0€', '19,2500\u00a0€'],
    ]);
    expect(body).toMatchObject({ release_date: String(1767225600 + 86400 + 9 * 3600), [EUR1]: '192500' });
  });

  it('a cleared field is sent as "", cleared categories as an empty list, a changed list whole', () => {
    const cleared = diffProduct(
      RECORD,
      edit((f) => {
        f.fields[0] = '';
        f.releaseAt = '';
        f.categories = [];
      }),
      EN,
    );
    expect(cleared.body).toEqual({
      name: 'Linen throw',
      enabled: 'true',
      release_date: '',
      category_array: [],
      'module_field_14/product_1': '',
    });
    expect(cleared.changes.find((c) => c.wire === 'release_date')).toMatchObject({ afterWire: undefined, after: '' });
    const more = diffProduct(
      RECORD,
      edit((f) => f.categories.push('158199')),
      EN,
    );
    expect(more.body).toMatchObject({ category_array: [{ id: '158198' }, { id: '158199' }] });
  });

  it('retiring the product sends enabled "false" and says so', () => {
    const { changes, body } = diffProduct(
      RECORD,
      edit((f) => (f.enabled = false)),
      EN,
    );
    expect(changes).toEqual([expect.objectContaining({ label: 'Enabled', before: 'Yes', after: 'No' })]);
    expect(body).toEqual({ name: 'Linen throw', enabled: 'false' });
  });

  it('a removed option is disabled (the platform cannot delete), a removed attribute too, its options left as they are', () => {
    const form = edit((f) => {
      f.attributes[0]!.options.splice(0, 1);
      f.attributes.splice(1, 1);
    });
    const { changes, body } = diffProduct(RECORD, form, EN);
    expect(changes.map((c) => [c.kind, c.label, c.before, c.after])).toEqual([
      ['disabled', 'Attribute “Colour” › Option “Sand” › Option enabled', 'Yes', 'No'],
      ['disabled', 'Attribute “Size” › Attribute enabled', 'Yes', 'No'],
    ]);
    expect(body?.attributes).toEqual([
      { id: '31', name: 'Colour', items: [{ id: '77', name: 'Sand', enabled: 'false' }] },
      { id: '32', name: 'Size', enabled: 'false' },
    ]);
  });

  it('an option switched off and another back on: disabled and re-enabled', () => {
    const record: ProductRecord = structuredClone(RECORD);
    record.attributes![0]!.items![1]!.enabled = 'false';
    const form = openForEdit(record, [], EN).form;
    form.attributes[0]!.options[0]!.enabled = false;
    form.attributes[0]!.options[1]!.enabled = true;
    expect(diffProduct(record, form, EN).changes.map((c) => [c.kind, c.optionId])).toEqual([
      ['disabled', '77'],
      ['re-enabled', '78'],
    ]);
  });

  it('new attributes and options go whole, without ids; existing ones keep theirs', () => {
    const form = edit((f) => {
      f.attributes[0]!.options.push({ ...emptyOption(), name: 'Rust', inventory: '4' });
      f.attributes.push({ ...emptyAttribute(), name: 'Fringe', options: [{ ...emptyOption(), name: 'Yes' }] });
    });
    const { changes, body } = diffProduct(RECORD, form, EN);
    expect(changes.map((c) => [c.kind, c.label, c.after])).toEqual([
      ['added', 'Attribute “Colour” › Option “Rust” › Option name', 'Rust'],
      ['added', 'Attribute “Colour” › Option “Rust” › Option enabled', 'Yes'],
      ['added', 'Attribute “Colour” › Option “Rust” › Stock', '4'],
      ['added', 'Attribute “Fringe” › Attribute name', 'Fringe'],
      ['added', 'Attribute “Fringe” › Attribute enabled', 'Yes'],
      ['added', 'Attribute “Fringe” › Option “Yes” › Option name', 'Yes'],
      ['added', 'Attribute “Fringe” › Option “Yes” › Option enabled', 'Yes'],
    ]);
    expect(body?.attributes).toEqual([
      { id: '31', name: 'Colour', items: [{ name: 'Rust', enabled: 'true', [STOCK]: '4' }] },
      { name: 'Fringe', enabled: 'true', items: [{ name: 'Yes', enabled: 'true' }] },
    ]);
    expect(validateProductUpdate(body, validateProduct)).toMatchObject({ ok: true });
  });

  it('compares and sends only the site’s fields: a currency it does not sell in is kept, never sent', () => {
    const site: SiteConfig = { id: 's', name: 'S', platform: { sandbox: true, siteId: '1' }, money: { currencies: ['usd'], decimals: 2 } };
    const settings = settingsForSite('en-GB', siteInfoOf(site));
    const form = openForEdit(RECORD, [], settings).form;
    expect(form.prices.eur[0]).toBe('18.50');
    form.prices.eur[0] = '';
    form.prices.usd[0] = '20';
    const { changes, body } = diffProduct(RECORD, form, settings);
    expect(changes.map((c) => c.wire)).toEqual([USD1]);
    expect(body).not.toHaveProperty(EUR1);
    expect(changes[0]).toMatchObject({ before: 'US$19.99', after: 'US$20.00' });
  });

  it('says what the form cannot send, rather than reading it as cleared silently', () => {
    const { problems } = diffProduct(
      RECORD,
      edit((f) => (f.prices.usd[0] = '12.345')),
      EN,
    );
    expect(problems).toEqual([{ path: 'prices.usd.0', message: expect.any(String) as string }]);
  });

  it('names categories by the site’s names where it has them', () => {
    const site: SiteConfig = {
      id: 's',
      name: 'S',
      platform: { sandbox: true, siteId: '1' },
      references: {
        categories: [
          { id: '158198', name: 'Bedding' },
          { id: '158199', name: 'Throws' },
        ],
      },
    };
    const settings = settingsForSite('en-US', siteInfoOf(site));
    const form = openForEdit(RECORD, [], settings).form;
    form.categories = ['158199'];
    expect(diffProduct(RECORD, form, settings).changes).toEqual([
      expect.objectContaining({ label: 'Categories', before: 'Bedding', after: 'Throws' }),
    ]);
  });

  it('labels fields with the site’s own names, and reads categories the same whichever way the list is written', () => {
    const site: SiteConfig = {
      id: 's',
      name: 'S',
      platform: { sandbox: true, siteId: '1' },
      labels: { productFields: { '1': { label: 'Description', multiline: true } }, optionStock: { label: 'Units on hand' } },
      references: { categoryEncoding: 'ids' },
    };
    const settings = settingsForSite('en-GB', siteInfoOf(site));
    // The record has the spec's objects; this site sends bare ids: the same categories, no change.
    const opened = openForEdit(RECORD, [], settings);
    expect(opened.readOnly).toEqual([]);
    expect(diffProduct(RECORD, opened.form, settings).body).toBeNull();
    opened.form.fields[0] = 'Soft Lithuanian linen';
    opened.form.attributes[0]!.options[0]!.inventory = '4';
    opened.form.categories.push('158199');
    const { changes, body } = diffProduct(RECORD, opened.form, settings);
    expect(changes.map((c) => c.label)).toEqual(['Categories', 'Description', 'Attribute “Colour” › Option “Sand” › Units on hand']);
    expect(body).toMatchObject({ category_array: ['158198', '158199'] });
  });

  it('diffs a 20 × 25 product quickly (logged once, never asserted)', () => {
    const big: ProductRecord = {
      ...RECORD,
      attributes: Array.from({ length: 20 }, (_, a) => ({
        id: String(1000 + a),
        name: `Attribute ${a}`,
        enabled: 'true',
        items: Array.from({ length: 25 }, (_, o) => ({
          id: String(100000 + a * 100 + o),
          name: `Option ${o}`,
          enabled: 'true',
          [OPTION_USD1]: String(o * 100),
          [STOCK]: String(o),
        })),
      })),
    };
    const reading = readProductRecord(JSON.parse(JSON.stringify(big)));
    if (!reading.ok) throw new Error(reading.problem);
    const form = openForEdit(reading.record, reading.unknown, EN).form;
    // Every option's price changed: the most rows a diff of this product can have from one field kind.
    for (const attribute of form.attributes) for (const option of attribute.options) option.prices.usd[0] = '9.99';
    // CPU time of this process (steadier than wall time on a shared machine), median of 15.
    const cpuMs = (run: () => void) => {
      const started = process.cpuUsage();
      run();
      const used = process.cpuUsage(started);
      return (used.user + used.system) / 1000;
    };
    const unchanged = openForEdit(reading.record, [], EN).form;
    const edited: number[] = [];
    const none: number[] = [];
    let rows = 0;
    let noEdit: ReturnType<typeof diffProduct> | undefined;
    for (let round = 0; round < 15; round += 1) {
      edited.push(cpuMs(() => (rows = diffProduct(reading.record, form, EN).changes.length)));
      none.push(cpuMs(() => (noEdit = diffProduct(reading.record, unchanged, EN))));
    }
    const median = (list: number[]) => list.sort((x, y) => x - y)[7]?.toFixed(1);
    console.log(
      `diffProduct 20 × 25, CPU ms, median of 15: every option price changed (${rows} rows) ${median(edited)}; no edit ${median(none)}`,
    );
    expect(rows).toBe(500);
    expect(noEdit?.body).toBeNull();
  });
});
