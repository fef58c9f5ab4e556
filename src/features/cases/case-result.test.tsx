import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { FormCase } from '@/contract/site-api';
import { parseExactJson } from '@/lib/exact-json';
import { render } from '@/test/render';
import { CaseResult } from './case-result';

const documented: FormCase = {
  id: '48217',
  name: 'form_3',
  form_name: 'Contact us',
  created_at: 1761955200,
  properties: {
    name: 'Aroha Ngata',
    email: 'aroha.ngata@example.com',
    user_id: '0',
    form_field_3_2: 'Your contact page says "open 9–5".\n<b>Please</b> call me back.',
    form_field_3_3: ['Orders', 'Wholesale'],
    form_field_3_5: '',
    form_field_3_6: true,
  },
};

function show(record: FormCase, form = '3', id = '48217') {
  return showText(JSON.stringify(record), form, id);
}

/** As the fetch layer hands it over: the record read exactly from the platform's text, and the text. */
function showText(text: string, form = '3', id = '48217') {
  const answer = { record: parseExactJson(text) as FormCase, text };
  return render(<CaseResult answer={answer} form={form} id={id} refreshing={false} onRefresh={vi.fn()} />);
}

const rowHeaders = () => screen.queryAllByRole('rowheader').map((cell) => cell.textContent);

// Tables are slow to render in jsdom; a slow machine must not fail these on time alone.
describe('CaseResult', { timeout: 20_000 }, () => {
  // The page loads the table's code when a lookup starts; here it is loaded before the first case.

  it('names fields and the form as the site profile does, when the record names no form', () => {
    const { form_name: _name, ...unnamed } = documented;
    const text = JSON.stringify(unnamed);
    render(
      <CaseResult
        answer={{ record: parseExactJson(text) as FormCase, text }}
        form="3"
        id="48217"
        refreshing={false}
        onRefresh={vi.fn()}
        formProfile={{ name: 'Contact us (profile)', fields: { form_field_3_2: 'Message', form_field_3_3: 'Topics' } }}
      />,
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Contact us (profile): case 48217' })).toBeInTheDocument();
    expect(rowHeaders()).toContain('Message form_field_3_2');
    expect(rowHeaders()).toContain('Topics form_field_3_3');
    // Keys the profile does not name keep their readable label.
    expect(rowHeaders()).toContain('User ID user_id');
  });

  it('identifies the case and lists every field with its label and raw key', () => {
    show(documented);
    expect(screen.getByRole('heading', { level: 2, name: 'Contact us: case 48217' })).toBeInTheDocument();
    expect(screen.getAllByText('form_3')).toHaveLength(2);
    expect(document.querySelector('time[datetime="2025-11-01T00:00:00.000Z"]')).not.toBeNull();
    expect(rowHeaders()).toContain('Form field 2 form_field_3_2');
    expect(rowHeaders()).toContain('User ID user_id');
    expect(screen.getByRole('columnheader', { name: 'Submitted fields' })).toBeInTheDocument();
    expect(screen.getByRole('tab', { name: 'Fields (11)' })).toHaveAttribute('aria-selected', 'true');
    expect(screen.getByText('(empty text)')).toBeInTheDocument();
  });

  it('filters by key, label or value, and says when nothing matches', async () => {
    const user = userEvent.setup({ delay: null });
    show(documented);
    const filter = screen.getByRole('searchbox', { name: 'Filter fields' });
    await user.type(filter, 'form_field_3_3');
    // The box shows what was typed at once; the table follows.
    expect(filter).toHaveValue('form_field_3_3');
    await waitFor(() => expect(rowHeaders()).toEqual(['Form field 3 form_field_3_3']));
    expect(screen.getByRole('status')).toHaveTextContent('Showing 1 of 11 fields');
    const filterBy = async (value: string, expected: string[]) => {
      fireEvent.change(filter, { target: { value } });
      await waitFor(() => expect(rowHeaders()).toEqual(expected));
    };
    await filterBy('WHOLESALE', ['Form field 3 form_field_3_3']);
    await filterBy('user id', ['User ID user_id']);
    await filterBy('<b>please', ['Form field 2 form_field_3_2']);
    await filterBy('amelia', []);
    await filterBy('aroha', ['Name name', 'Email email']);
    fireEvent.change(filter, { target: { value: '<b>please zzz' } });
    expect(await screen.findByText('No field matches “<b>please zzz”.')).toBeInTheDocument();
    expect(screen.queryByRole('table')).toBeNull();
  });

  it('shows markup in keys and values as text', () => {
    const { container } = show({
      '<img src=x onerror=alert(1)>': '<script>alert(1)</script>',
      note: '<a href="https://evil.example">x</a>',
    });
    expect(container.querySelector('img, script, a[href="https://evil.example"]')).toBeNull();
    expect(screen.getByText('<script>alert(1)</script>')).toBeInTheDocument();
    expect(screen.getByText('<img src=x onerror=alert(1)>')).toBeInTheDocument();
  });

  it('renders an unknown shape, key by key, in one section', async () => {
    const user = userEvent.setup({ delay: null });
    show(
      {
        ticket: { level1: { level2: { tags: ['a', 'b'] } } },
        matrix: [
          [1, 2],
          [3, [4, [5]]],
        ],
        '': 'blank key',
        0: 'zero',
      },
      'x',
      'y',
    );
    expect(screen.getByRole('heading', { level: 2, name: 'Form x: case y' })).toBeInTheDocument();
    expect(screen.queryByRole('columnheader', { name: 'Submitted fields' })).toBeNull();
    expect(rowHeaders()).toEqual(['Item 1 0', 'Ticket ticket', 'Matrix matrix', '(empty key) ']);
    await user.type(screen.getByRole('searchbox', { name: 'Filter fields' }), 'tags');
    await waitFor(() => expect(rowHeaders()).toEqual(['Ticket ticket']));
  });

  it('explains an empty object instead of showing a blank screen', () => {
    show({}, '3', '48299');
    expect(screen.getByRole('heading', { level: 2, name: 'Form 3: case 48299' })).toBeInTheDocument();
    expect(screen.getByText('The platform found this case but sent no data for it')).toBeInTheDocument();
    expect(screen.getByText(/The answer for case/)).toHaveTextContent('was an empty JSON object, {}');
    expect(screen.getByText('No fields.')).toBeInTheDocument();
    expect(screen.queryByRole('searchbox')).toBeNull();
    // A calm note: nothing went wrong, so nothing is announced as an alert.
    expect(screen.getByRole('note')).toHaveTextContent('The platform found this case but sent no data for it');
    expect(screen.queryByRole('alert')).toBeNull();
  });

  it('shows the empty object {} as it came in the raw JSON', async () => {
    const user = userEvent.setup({ delay: null });
    const { container } = showText('{}', '3', '48299');
    await user.click(screen.getByRole('tab', { name: 'Raw JSON' }));
    expect(container.querySelector('pre')?.textContent).toBe('{}');
  });

  it('shows the raw JSON exactly as received, indented', async () => {
    const user = userEvent.setup({ delay: null });
    const record = { b: 1, a: '<b>x</b>', nested: { list: [] } };
    const { container } = show(record);
    await user.click(screen.getByRole('tab', { name: 'Raw JSON' }));
    expect(container.querySelector('pre')?.textContent).toBe(JSON.stringify(record, null, 2));
  });

  it('keeps every digit of a large number: in the table, the raw JSON, and what is copied', async () => {
    const user = userEvent.setup({ delay: null });
    const text =
      '{"order_id":12345678901234567890,"properties":{"ticket":98765432109876543210,"amount":1.50,"items":[{"sku":11111111111111111111}]}}';
    const { container } = showText(text, '7', '1');
    expect(screen.getByRole('row', { name: /Ticket ticket/ })).toHaveTextContent('98765432109876543210');
    expect(screen.getByRole('row', { name: /Order ID order_id/ })).toHaveTextContent('12345678901234567890');
    expect(screen.getByRole('row', { name: /Amount amount/ })).toHaveTextContent('1.50');
    expect(screen.getByText('11111111111111111111')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Copy value of Items (items)' }));
    expect(await navigator.clipboard.readText()).toBe('[\n  {\n    "sku": 11111111111111111111\n  }\n]');
    await user.click(screen.getByRole('button', { name: 'Copy JSON of the case' }));
    expect(await navigator.clipboard.readText()).toContain('"order_id": 12345678901234567890,');
    fireEvent.change(screen.getByRole('searchbox', { name: 'Filter fields' }), { target: { value: '98765432109876543210' } });
    await waitFor(() => expect(rowHeaders()).toEqual(['Ticket ticket']));
    await user.click(screen.getByRole('tab', { name: 'Raw JSON' }));
    expect(container.querySelector('pre')?.textContent).toBe(
      '{\n  "order_id": 12345678901234567890,\n  "properties": {\n    "ticket": 98765432109876543210,\n    "amount": 1.50,\n    "items": [\n      {\n        "sku": 11111111111111111111\n      }\n    ]\n  }\n}',
    );
  });

  // jsdom lays nothing out: rows get the height a browser gives them, so that, as in a browser, only
  // the rows near the screen are rendered. e2e/cases.spec.ts checks an 800-field case in Chromium.
  it('renders only the rows near the screen of a case of hundreds of fields, says how many it has, and filters them all', async () => {
    const rowHeight = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(40);
    try {
      const properties = Object.fromEntries(Array.from({ length: 500 }, (_, i) => [`form_field_3_${i + 1}`, `value ${i + 1}`]));
      show({ id: '1', properties }, '3', '1');
      expect(screen.getByRole('tab', { name: 'Fields (501)' })).toBeInTheDocument();
      // The column headings, two section titles and every field.
      expect(screen.getByRole('table')).toHaveAttribute('aria-rowcount', String(1 + 2 + 501));
      await waitFor(() => expect(rowHeaders()[0]).toBe('Form field 1 form_field_3_1'));
      expect(rowHeaders().length).toBeLessThan(50);
      const [head, title, first] = screen.getAllByRole('row');
      expect([head, title, first].map((row) => row?.getAttribute('aria-rowindex'))).toEqual(['1', '2', '3']);
      fireEvent.change(screen.getByRole('searchbox', { name: 'Filter fields' }), { target: { value: 'value 499' } });
      await waitFor(() => expect(rowHeaders()).toEqual(['Form field 499 form_field_3_499']));
      const table = screen.getByRole('table');
      expect(table).toHaveAttribute('aria-rowcount', String(1 + 1 + 1));
      expect(within(table).getByRole('button', { name: 'Copy value of Form field 499 (form_field_3_499)' })).toBeInTheDocument();
    } finally {
      rowHeight.mockRestore();
    }
  });

  it('renders every row of a case of a few dozen fields, for the browser’s own find', async () => {
    const rowHeight = vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(40);
    try {
      const properties = Object.fromEntries(Array.from({ length: 50 }, (_, i) => [`form_field_3_${i + 1}`, `value ${i + 1}`]));
      show({ id: '1', properties }, '3', '1');
      // Far more than a screenful of 40 px rows.
      await waitFor(() => expect(rowHeaders()).toHaveLength(51));
    } finally {
      rowHeight.mockRestore();
    }
  });

  it('keeps the filter across the tabs, and a long value opened while its row was filtered out', async () => {
    const user = userEvent.setup({ delay: null });
    show({ ...documented, properties: { ...(documented.properties as Record<string, unknown>), message: 'one mug chipped '.repeat(100) } });
    await user.click(screen.getByRole('button', { name: /^Show all \(.+\) of Message$/ }));
    expect(screen.getByRole('button', { name: 'Show less of Message' })).toHaveAttribute('aria-expanded', 'true');
    const filter = screen.getByRole('searchbox', { name: 'Filter fields' });
    await user.type(filter, 'aroha');
    await waitFor(() => expect(rowHeaders()).toEqual(['Name name', 'Email email']));
    await user.clear(filter);
    expect(await screen.findByRole('button', { name: 'Show less of Message' })).toHaveAttribute('aria-expanded', 'true');
    await user.type(filter, 'chipped');
    await user.click(screen.getByRole('tab', { name: 'Raw JSON' }));
    await user.click(screen.getByRole('tab', { name: /^Fields/ }));
    expect(screen.getByRole('searchbox', { name: 'Filter fields' })).toHaveValue('chipped');
    await waitFor(() => expect(rowHeaders()).toEqual(['Message message']));
  });

  it('copies one value as it is, and objects as JSON', async () => {
    const user = userEvent.setup({ delay: null });
    show(documented);
    await user.click(screen.getByRole('button', { name: 'Copy value of Email (email)' }));
    expect(await navigator.clipboard.readText()).toBe('aroha.ngata@example.com');
    expect(await screen.findByRole('button', { name: 'Copied value of Email' })).toHaveTextContent('Copied');
    await user.click(screen.getByRole('button', { name: 'Copy value of Form field 3 (form_field_3_3)' }));
    expect(JSON.parse(await navigator.clipboard.readText())).toEqual(['Orders', 'Wholesale']);
    expect(await screen.findByRole('button', { name: 'Copy value of Email (email)' })).toBeInTheDocument();
  });

  it('offers refresh, copy and download, each with a name', () => {
    show(documented);
    expect(screen.getByRole('button', { name: /^Refresh/ })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Copy JSON of the case' })).toHaveTextContent('Copy JSON');
    expect(screen.getByRole('button', { name: 'Download JSON as form-3-case-48217.json' })).toBeInTheDocument();
  });
});
