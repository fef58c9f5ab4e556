import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { render } from '@/test/render';
import { ValueView } from './value-view';

const show = (value: unknown, fieldKey?: string) => render(<ValueView value={value} fieldKey={fieldKey} label="Field" />);

describe('ValueView', () => {
  it('links web addresses into a new tab, safely', () => {
    show('https://cdn.example.com/uploads/form_3/48217/screenshot.png');
    const link = screen.getByRole('link', { name: /screenshot\.png/ });
    expect(link).toHaveAttribute('href', 'https://cdn.example.com/uploads/form_3/48217/screenshot.png');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    expect(link).toHaveAccessibleName(/opens in a new tab/);
  });

  it('never links other schemes', () => {
    const { container } = show('javascript:alert(1)');
    expect(screen.queryByRole('link')).toBeNull();
    expect(container).toHaveTextContent('javascript:alert(1)');
  });

  it('links email addresses with mailto', () => {
    show('aroha.ngata@example.com');
    expect(screen.getByRole('link', { name: 'aroha.ngata@example.com' })).toHaveAttribute('href', 'mailto:aroha.ngata@example.com');
  });

  it('shows markup as text and never injects it', () => {
    const html = '<img src=x onerror="window.__pwned=1"><script>window.__pwned=1</script><b>Please</b>';
    const { container } = show(html);
    expect(container).toHaveTextContent(html);
    expect(container.querySelector('img, script, b')).toBeNull();
  });

  it('keeps the line breaks of long text', () => {
    const text = 'Hi there,\n\nI ordered the linen throw.\n  Thanks';
    show(text);
    const node = screen.getByText((_, element) => element?.textContent === text && element.tagName === 'P');
    expect(node.textContent).toBe(text);
  });

  it.each([
    [null, '(null)'],
    ['', '(empty text)'],
    [[], '(empty list)'],
    [{}, '(empty object)'],
    ['  ', '(blank text: 2 spaces)'],
  ])('shows %j as empty, not hidden', (value, text) => {
    show(value);
    expect(screen.getByText(text)).toBeInTheDocument();
  });

  it('shows booleans and numbers as they are', () => {
    show(false);
    expect(screen.getByText(/No/)).toHaveTextContent('No (false)');
  });

  it('shows epoch seconds and ISO dates as dates in a time element', () => {
    const { container, unmount } = show(1761955200, 'form_field_3_4');
    expect(container.querySelector('time')).toHaveAttribute('datetime', '2025-11-01T00:00:00.000Z');
    unmount();
    const iso = show('2026-03-01');
    expect(iso.container.querySelector('time')).toHaveAttribute('datetime', '2026-03-01');
    iso.unmount();
    const id = show(1761955200, 'order_id');
    expect(id.container.querySelector('time')).toBeNull();
    expect(id.container).toHaveTextContent('1761955200');
  });

  it('shows short lists as chips', () => {
    show(['Orders', 'Shipping', 'Returns']);
    const list = screen.getByRole('list', { name: 'Field' });
    expect(
      within(list)
        .getAllByRole('listitem')
        .map((item) => item.textContent),
    ).toEqual(['Orders', 'Shipping', 'Returns']);
  });

  it('opens and closes nested objects', async () => {
    const user = userEvent.setup();
    show({ street: '174 Cuba Street', city: 'Wellington' });
    const toggle = screen.getByRole('button', { name: 'Hide 2 fields of Field' });
    expect(toggle).toHaveAttribute('aria-expanded', 'true');
    expect(screen.getByText('174 Cuba Street')).toBeVisible();
    expect(screen.getByText('street')).toBeInTheDocument();
    await user.click(toggle);
    expect(screen.getByRole('button', { name: 'Show 2 fields of Field' })).toHaveAttribute('aria-expanded', 'false');
    expect(screen.queryByText('174 Cuba Street')).toBeNull();
  });

  it('renders nested arrays and lists of objects, item by item', () => {
    show([{ guest: 'Aroha Ngata', ticket: 'VIP' }, [1, [2, [3]]], null]);
    expect(screen.getByRole('button', { name: 'Hide 3 items of Field' })).toBeInTheDocument();
    expect(screen.getByText('Aroha Ngata')).toBeInTheDocument();
    expect(screen.getByText('guest')).toBeInTheDocument();
    // The inner list is open; its own inner list starts closed, two levels down.
    expect(screen.getByRole('button', { name: 'Hide 2 items of Field, item 2' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Show 2 items of Field, item 2, item 2' })).toBeInTheDocument();
    expect(screen.getByText('(null)')).toBeInTheDocument();
  });

  it('starts deep or large values closed, and opens them level by level', async () => {
    const user = userEvent.setup();
    let deep: unknown = 'bottom';
    for (let i = 9; i >= 0; i -= 1) deep = { [`level${i}`]: deep };
    show(deep);
    expect(screen.queryByText('bottom')).toBeNull();
    const closed = screen.getByRole('button', { name: /^Show 1 field of Field, Level0, Level1$/ });
    await user.click(closed);
    expect(screen.getByRole('button', { name: /^Hide 1 field of Field, Level0, Level1$/ })).toBeInTheDocument();
    const big = Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`k${i}`, i]));
    render(<ValueView value={big} label="Big" />);
    expect(screen.getByRole('button', { name: 'Show 40 fields of Big' })).toHaveAttribute('aria-expanded', 'false');
  });

  it('cuts long text to its start with "Show all (size)", shows all of it on request, and cuts it again', async () => {
    const user = userEvent.setup();
    const text = 'one mug chipped '.repeat(12_800);
    const { container } = show(text, 'message');
    const shownText = () => container.querySelector('p')?.textContent ?? '';
    const showAll = screen.getByRole('button', { name: 'Show all (200 KB) of Field' });
    expect(showAll).toHaveAttribute('aria-expanded', 'false');
    expect(shownText().length).toBeLessThan(2000);
    expect(text.startsWith(shownText())).toBe(true);
    await user.click(showAll);
    expect(shownText()).toBe(text);
    const showLess = screen.getByRole('button', { name: 'Show less of Field' });
    expect(showLess).toHaveAttribute('aria-expanded', 'true');
    await user.click(showLess);
    expect(shownText().length).toBeLessThan(2000);
  });

  it('leaves short text whole, without a button', () => {
    show('Do you ship to New Zealand?');
    expect(screen.queryByRole('button')).toBeNull();
  });

  it('shows invisible characters as marks in text, links and chips', () => {
    const { container, unmount } = show('\u202Egnp.exe');
    expect(container).toHaveTextContent('⟨U+202E RLO⟩gnp.exe');
    expect(container.textContent).not.toContain('\u202E');
    unmount();
    show(['\u200Bsale', 'Orders']);
    expect(screen.getAllByRole('listitem').map((item) => item.textContent)).toEqual(['⟨U+200B ZWSP⟩sale', 'Orders']);
  });

  it('shows the first 24 chips of a longer list, and all on request', async () => {
    const user = userEvent.setup();
    show(Array.from({ length: 30 }, (_, i) => `tag ${i + 1}`));
    expect(screen.getAllByRole('listitem')).toHaveLength(24);
    await user.click(screen.getByRole('button', { name: 'Show all (30 items) of Field' }));
    expect(screen.getAllByRole('listitem')).toHaveLength(30);
  });
});
