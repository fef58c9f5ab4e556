import { describe, expect, it } from 'vitest';
import { freshInbox, inboxFilter, inboxHref, inboxQuery, MAX_PAGES_READ, readInboxAddress } from './inbox-address';

describe('the inbox address', () => {
  it('reads back what it writes: form, range, conditions, team filters, pages read and position', () => {
    const inbox = {
      form: '21',
      from: '2026-10-01',
      to: '2026-10-31',
      where: { form_field_21_6: 'Refund' },
      team: ['mine' as const, 'new' as const],
      read: 3,
      at: 12,
    };
    const query = inboxQuery(inbox);
    expect(query.toString()).toBe(
      'form=21&from=2026-10-01&to=2026-10-31&where=%7B%22form_field_21_6%22%3A%22Refund%22%7D&team=mine%2Cnew&read=3&at=12',
    );
    expect(readInboxAddress(`?${query.toString()}`)).toEqual(inbox);
    // The inbox's own page has the form in its path, not in the query.
    const own = inboxHref(inbox);
    expect(own).toBe(`/cases/21?${inboxQuery(inbox, false).toString()}`);
    expect(readInboxAddress(own.slice(own.indexOf('?')), '21')).toEqual(inbox);
  });

  it('names no inbox without a form that can be one, and leaves out what is not well formed', () => {
    expect(readInboxAddress('')).toBeNull();
    expect(readInboxAddress('?form=caf%C3%A9')).toBeNull();
    expect(readInboxAddress('', 'a b')).toBeNull();
    expect(readInboxAddress('?form=21&from=yesterday&to=2026-13-45&where=%7Bnot%20json&team=all,new,mine&read=0&at=-3')).toEqual({
      ...freshInbox('21'),
      // Known team filters kept, in their own order; read at least 1.
      team: ['mine', 'new'],
    });
    expect(readInboxAddress(`?form=21&team=open&read=100000`)?.read).toBe(MAX_PAGES_READ);
    // A condition the platform's rules refuse, or a date condition outside the range boxes, is dropped.
    expect(readInboxAddress(`?form=21&where=${encodeURIComponent('{"a b": 1}')}`)?.where).toEqual({});
    expect(readInboxAddress(`?form=21&where=${encodeURIComponent('{"created_at": 1, "email": "x"}')}`)?.where).toEqual({ email: 'x' });
  });

  it('keeps `read` only with team filters: without them every page can be reached by scrolling', () => {
    expect(inboxQuery({ ...freshInbox('21'), read: 4 }).toString()).toBe('form=21');
    expect(inboxQuery({ ...freshInbox('21'), team: ['open'], read: 4 }).toString()).toBe('form=21&team=open&read=4');
  });

  it('turns the days into created_at from the first day’s start to the last day’s end, in the browser’s zone', () => {
    const filter = inboxFilter({ from: '2026-10-01', to: '2026-10-31', where: { email: { contains: 'ana' } } });
    const start = new Date(2026, 9, 1).getTime() / 1000;
    const end = new Date(2026, 10, 1).getTime() / 1000;
    expect(filter).toEqual({ email: { contains: 'ana' }, created_at: { gt: start - 1, lt: end } });
    expect(inboxFilter({ from: null, to: null, where: {} })).toBeUndefined();
  });
});
