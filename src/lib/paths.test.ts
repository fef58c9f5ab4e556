import { describe, expect, it } from 'vitest';
import { fullProduct } from '@/contract/fixtures';
import { matchPath, matchPathName, pathTo, readPathState, withQuery } from './paths';

describe('pathTo', () => {
  it('builds every page’s address from the table, encoding params', () => {
    expect(pathTo('home')).toBe('/');
    expect(pathTo('cases')).toBe('/cases');
    expect(pathTo('inbox', { form: '21' })).toBe('/cases/21');
    expect(pathTo('case', { form: '3', id: '48217' })).toBe('/cases/3/48217');
    expect(pathTo('case', { form: 'a/b', id: 'ü ?#' })).toBe('/cases/a%2Fb/%C3%BC%20%3F%23');
    expect(pathTo('products')).toBe('/products');
    expect(pathTo('newProduct')).toBe('/products/new');
    expect(pathTo('createdProduct', { id: 'mhx1a2b' })).toBe('/products/created/mhx1a2b');
    expect(pathTo('editImported', { row: '2' })).toBe('/products/import/edit/2');
  });

  it('reads back what it built', () => {
    const params = { form: 'a/b', id: '%E0 x' };
    expect(matchPathName('case', pathTo('case', params))).toEqual(params);
    expect(matchPathName('case', '/cases')).toBeNull();
    // A form's inbox and a case of it are told apart by their number of parts: no form or case id is ambiguous.
    expect(matchPathName('inbox', '/cases/21')).toEqual({ form: '21' });
    expect(matchPathName('inbox', '/cases/21/48217')).toBeNull();
    expect(matchPathName('case', '/cases/21')).toBeNull();
    expect(matchPathName('createdProduct', '/products/new')).toBeNull();
    expect(matchPathName('importProducts', pathTo('editImported', { row: '2' }))).toBeNull();
  });
});

describe('withQuery', () => {
  it('adds a query to a page’s address, encoded, and nothing when it is empty', () => {
    expect(withQuery(pathTo('activity'), new URLSearchParams({ person: 'p 1', q: 'a&b' }))).toBe('/activity?person=p+1&q=a%26b');
    expect(withQuery(pathTo('products'), new URLSearchParams())).toBe('/products');
  });
});

describe('matchPath', () => {
  it.each([
    ['/cases/:form/:id', '/cases/3/48217', { form: '3', id: '48217' }],
    ['/cases/:form/:id', '/cases/3/48217/', { form: '3', id: '48217' }],
    ['/cases', '/cases', {}],
    ['/', '/', {}],
    ['*', '/anything/at/all', {}],
  ])('%s matches %s', (pattern, path, params) => {
    expect(matchPath(pattern, path)).toEqual(params);
  });

  it.each([
    ['/cases/:form/:id', '/cases/3'],
    ['/cases/:form/:id', '/cases/3/4/5'],
    ['/products', '/products/new'],
    ['/', '/cases'],
    ['/cases/:form/:id', '/cases/%E0%A4%A/1'],
  ])('%s does not match %s', (pattern, path) => {
    expect(matchPath(pattern, path)).toBeNull();
  });

  it('matches a prefix when asked', () => {
    expect(matchPath('/cases', '/cases/3/48217', false)).toEqual({});
  });
});

describe('readPathState', () => {
  it('accepts what a page may carry', () => {
    expect(readPathState('case', { lookup: true, formReadAs: { typed: 'form_3', form: '3' } })).toEqual({
      lookup: true,
      formReadAs: { typed: 'form_3', form: '3' },
    });
    expect(readPathState('createdProduct', { justCreated: true })).toEqual({ justCreated: true });
    expect(readPathState('newProduct', { template: fullProduct() })).toEqual({ template: fullProduct() });
    expect(readPathState('newProduct', { change: 'c1', version: 2 })).toEqual({ change: 'c1', version: 2 });
    expect(readPathState('catalogueProduct', { change: 'c1', version: 1 })).toEqual({ change: 'c1', version: 1 });
  });

  it('gives nothing for state of another shape, as an older version or another page may have left', () => {
    expect(readPathState('case', undefined)).toBeUndefined();
    expect(readPathState('case', null)).toBeUndefined();
    expect(readPathState('case', { lookup: 'yes' })).toBeUndefined();
    expect(readPathState('createdProduct', 'justCreated')).toBeUndefined();
    expect(readPathState('case', { formReadAs: { typed: 1, form: '3' } })).toBeUndefined();
    expect(readPathState('newProduct', { template: ['not', 'a', 'product'] })).toBeUndefined();
    expect(readPathState('catalogueProduct', { change: 'c1', version: 0 })).toBeUndefined();
    expect(readPathState('catalogueProduct', { change: '', version: 1 })).toBeUndefined();
    expect(readPathState('newProduct', { change: 7 })).toBeUndefined();
  });

  it('keeps only the keys a page knows, as a zod object would', () => {
    expect(readPathState('case', { lookup: true, scroll: 300, formReadAs: { typed: 'form_3', form: '3', at: 1 } })).toEqual({
      lookup: true,
      formReadAs: { typed: 'form_3', form: '3' },
    });
    expect(readPathState('createdProduct', { justCreated: false, other: 'x' })).toEqual({ justCreated: false });
  });

  it('leaves a template to the editor, which checks it against the contract', () => {
    // Any object passes here; new-product-page.tsx uses it only if wireProductSchema accepts it.
    expect(readPathState('newProduct', { template: { name: 1 } })).toEqual({ template: { name: 1 } });
  });
});
