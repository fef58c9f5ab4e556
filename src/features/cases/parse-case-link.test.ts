import { describe, expect, it } from 'vitest';
import { parseCaseLink, readFormBox } from './parse-case-link';

describe('parseCaseLink', () => {
  it.each([
    ['https://admin.example.com/cases/3/48217', { form: '3', id: '48217' }],
    ['http://127.0.0.1:4173/cases/12/48311?tab=raw#top', { form: '12', id: '48311' }],
    ['/cases/3/48217', { form: '3', id: '48217' }],
    ['/cases/3/48217/', { form: '3', id: '48217' }],
    ['cases/7/48260', { form: '7', id: '48260' }],
    ['3/48217', { form: '3', id: '48217' }],
    ['  3 / 48217  ', { form: '3', id: '48217' }],
    ['forms/3/cases/48217', { form: '3', id: '48217' }],
    ['https://www.example.com/api/site/v2/forms/3/cases/48217', { form: '3', id: '48217' }],
    ['admin.example.com/cases/contact_us/A-17', { form: 'contact_us', id: 'A-17' }],
    ['/cases/form%203/1', { form: 'form 3', id: '1' }],
  ])('reads %s', (input, expected) => {
    expect(parseCaseLink(input)).toEqual(expected);
  });

  it.each([
    [''],
    ['3'],
    ['48217'],
    ['3/'],
    ['/cases'],
    ['/cases/3'],
    ['cases/3'],
    ['forms/3'],
    ['https://example.com/'],
    ['https://example.com/3/48217'],
    ['a/b/c'],
    ['https://'],
    ['/cases/3/48217/edit'],
  ])('finds nothing in %j', (input) => {
    expect(parseCaseLink(input)).toBeNull();
  });

  it('keeps a malformed escape as typed', () => {
    expect(parseCaseLink('3/%E0%A4%A')).toEqual({ form: '3', id: '%E0%A4%A' });
  });
});

describe('readFormBox', () => {
  it.each([
    ['form_3', { form: '3', readFrom: 'form_3' }],
    ['FORM_12', { form: '12', readFrom: 'FORM_12' }],
    ['3', { form: '3', readFrom: null }],
    ['form_', { form: 'form_', readFrom: null }],
    ['form_3a', { form: 'form_3a', readFrom: null }],
    ['contact_us', { form: 'contact_us', readFrom: null }],
  ])('reads %j', (text, reading) => {
    expect(readFormBox(text)).toEqual(reading);
  });
});
