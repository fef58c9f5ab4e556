import { configure, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { formatDate } from '@/lib/format-date';
import { PATHS, pathTo } from '@/lib/paths';
import { Route, Routes, useLocation, usePathParams } from '@/lib/router';
import { render } from '@/test/render';
import { formatMoney } from '../model/money';
import { CataloguePage } from './catalogue-page';

// The rows are put on screen in a transition, after the answer's own render: on a busy machine that can take
// longer than Testing Library's default second.
configure({ asyncUtilTimeout: 5000 });

function Location() {
  const location = useLocation();
  return <output aria-label="Location">{location.pathname + location.search}</output>;
}

/** Where a row leads: the editor's page, built elsewhere; here it only says which product it was given. */
function OpenedProduct() {
  return <p>Opened product {usePathParams('catalogueProduct')?.id}</p>;
}

function showPage(route = '/catalogue') {
  return render(
    <>
      <Routes>
        <Route path={PATHS.catalogue} element={<CataloguePage />} />
        <Route path={PATHS.catalogueProduct} element={<OpenedProduct />} />
      </Routes>
      <Location />
    </>,
    { route },
  );
}

const RELEASE = 1790000000;
const PRICE_KEY = 'module_field_14/product/price/aud/1';
/** Product n of the fake platform's catalogue: every third disabled, every other with a release date. */
const product = (n: number): Record<string, string> => ({
  id: String(1000 + n),
  name: `Product ${String(n).padStart(4, '0')}`,
  slug: n === 777 ? 'linen-throw-sage' : `product-${n}`,
  enabled: n % 3 === 0 ? 'false' : 'true',
  [PRICE_KEY]: String(1999 + n),
  ...(n % 2 === 0 ? { release_date: String(RELEASE + n * 60) } : {}),
  // Keys the catalogue did not ask for: a platform that sends more is read all the same.
  weighting: '3',
});

const json = (status: number, body: unknown, platform = true) =>
  new Response(typeof body === 'string' ? body : JSON.stringify(body), {
    status,
    headers: { 'content-type': 'application/json', ...(platform ? { 'x-platform-status': String(status) } : {}) },
  });

/** The platform's list of `total` products, in the `results` envelope, sorted by name when asked (newest first otherwise). */
function catalogueOf(total: number) {
  return (url: string): Response => {
    const address = new URL(url, 'http://x');
    if (address.pathname !== '/api/site/v2/ecommerce/products')
      return json(404, { error: 'Not Found', message: 'No such address', code: 404 }, false);
    const page = Number(address.searchParams.get('page'));
    const perPage = Number(address.searchParams.get('per_page'));
    const ids = Array.from({ length: total }, (_, n) => n);
    if (address.searchParams.get('sort_type') === 'name') ids.reverse();
    if (address.searchParams.get('sort_order') === 'asc') ids.reverse();
    const keys = address.searchParams.get('properties')?.split(',') ?? [];
    const results = ids
      .slice((page - 1) * perPage, page * perPage)
      .map((n) =>
        Object.fromEntries(Object.entries(product(n)).filter(([key]) => keys.length === 0 || keys.includes(key) || key === 'weighting')),
      );
    return json(200, { results, total_entries: total, total_pages: Math.ceil(total / perPage), current_page: page, per_page: perPage });
  };
}

type Fetch = (url: string, init?: RequestInit) => Promise<Response>;
let fetchMock: ReturnType<typeof vi.fn<Fetch>>;

beforeEach(() => {
  fetchMock = vi.fn<Fetch>();
  vi.stubGlobal('fetch', fetchMock);
  // jsdom lays nothing out: the list's box is given its height in a browser, so that rows are rendered.
  vi.spyOn(HTMLElement.prototype, 'clientHeight', 'get').mockReturnValue(576);
  vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(800);
  vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(44);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

const listOf = () => screen.getByRole('list', { name: 'Products of Sandbox' });
function rowOf(n: number): HTMLElement {
  const row = listOf().querySelector<HTMLElement>(`[aria-posinset="${n}"]`);
  if (!row) throw new Error(`No row ${n} on screen`);
  return within(row).getByRole('link');
}
const asked = () => fetchMock.mock.calls.map(([url]) => new URL(url, 'http://x'));
const location = () => screen.getByRole('status', { name: 'Location' });

describe('the catalogue', { timeout: 20_000 }, () => {
  it('asks the platform for the first page of 500, naming only its columns, and shows each product’s row', async () => {
    fetchMock.mockImplementation((url) => Promise.resolve(catalogueOf(1200)(url)));
    showPage();
    expect(await screen.findByText('1,200 products, newest first')).toBeInTheDocument();
    expect(fetchMock.mock.calls.map(([url]) => url)).toEqual([
      '/api/site/v2/ecommerce/products?per_page=500&page=1&sort_type=created_at&sort_order=desc' +
        '&properties=id,name,slug,enabled,module_field_14%2Fproduct%2Fprice%2Faud%2F1,release_date,expiry_date',
    ]);
    const first = await waitFor(() => rowOf(1));
    const price = formatMoney(1999, 'aud', navigator.language, 2);
    const release = formatDate(new Date(RELEASE * 1000), { locale: navigator.language });
    expect(first).toHaveTextContent(`Product 0000, Slug: product-0, Disabled, Price: ${price}, Release: ${release}, Expiry: —`);
    expect(first).toHaveAttribute('href', '/catalogue/1000');
    expect(rowOf(2)).toHaveTextContent(/^Product 0001, Slug: product-1, Enabled, Price: .+, Release: —, Expiry: —$/);
    expect(listOf().querySelector('[aria-posinset="1"]')).toHaveAttribute('aria-setsize', '1200');
  });

  it('moves between rows with the arrow keys, one Tab stop; Enter opens the product and the address keeps the row', async () => {
    fetchMock.mockImplementation((url) => Promise.resolve(catalogueOf(40)(url)));
    const user = userEvent.setup({ delay: null });
    showPage('/catalogue?sort=name&order=asc');
    const first = await waitFor(() => rowOf(1));
    expect(
      within(listOf())
        .getAllByRole('link')
        .filter((link) => link.tabIndex === 0),
    ).toEqual([first]);
    first.focus();
    await user.keyboard('{ArrowDown}{ArrowDown}');
    await waitFor(() => expect(document.activeElement).toBe(rowOf(3)));
    expect(rowOf(3)).toHaveAttribute('tabindex', '0');
    expect(first).toHaveAttribute('tabindex', '-1');
    await user.keyboard('{End}');
    await waitFor(() => expect(document.activeElement?.getAttribute('href')).toBe('/catalogue/1039'));
    await user.keyboard('{Home}{ArrowDown}{Enter}');
    expect(await screen.findByText('Opened product 1001')).toBeInTheDocument();
    // Back returns to the same sorted list at the row opened.
    expect(location()).toHaveTextContent('/catalogue/1001');
  });

  it('sorts by what the platform sorts: the order goes into the request and the address, and the list starts afresh', async () => {
    fetchMock.mockImplementation((url) => Promise.resolve(catalogueOf(40)(url)));
    const user = userEvent.setup({ delay: null });
    showPage();
    await waitFor(() => expect(rowOf(1)).toHaveTextContent(/^Product 0000,/));
    await user.selectOptions(screen.getByRole('combobox', { name: 'Sort' }), 'Name, Z to A');
    expect(location()).toHaveTextContent(/^\/catalogue\?sort=name&order=desc$/);
    expect(await screen.findByText('40 products, by name, Z to A')).toBeInTheDocument();
    await waitFor(() => expect(rowOf(1)).toHaveTextContent(/^Product 0039,/));
    const last = asked().at(-1);
    expect(last?.searchParams.get('sort_type')).toBe('name');
    expect(last?.searchParams.get('sort_order')).toBe('desc');
  });

  it('searches name and slug over the pages read, reading the rest in the background and saying how far it has got', async () => {
    const answer = catalogueOf(1200);
    let releasePage3: () => void = () => undefined;
    const page3 = new Promise<void>((resolve) => (releasePage3 = resolve));
    fetchMock.mockImplementation(async (url) => {
      if (new URL(url, 'http://x').searchParams.get('page') === '3') await page3;
      return answer(url);
    });
    const user = userEvent.setup({ delay: null });
    showPage();
    await screen.findByText('1,200 products, newest first');
    await user.type(screen.getByRole('searchbox', { name: 'Search by name or slug' }), 'LINEN');
    expect(location()).toHaveTextContent(/^\/catalogue\?q=LINEN$/);
    // Pages 1 and 2 are read (1,000 products); the third is on its way.
    expect(await screen.findByText('Searched 1,000 of 1,200 products, reading the rest: 1 matches “LINEN” so far')).toBeInTheDocument();
    expect(asked().map((url) => url.searchParams.get('page'))).toEqual(['1', '2', '3']);
    await waitFor(() => expect(rowOf(1)).toHaveTextContent(/^Product 0777, Slug: linen-throw-sage,/));
    releasePage3();
    expect(await screen.findByText('Searched all 1,200 products: 1 matches “LINEN”')).toBeInTheDocument();

    // By name, and none: said so, with a way back to the whole list.
    await user.clear(screen.getByRole('searchbox', { name: 'Search by name or slug' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search by name or slug' }), 'product 011');
    expect(await screen.findByText('Searched all 1,200 products: 10 match “product 011”')).toBeInTheDocument();
    expect(fetchMock).toHaveBeenCalledTimes(3);
    await user.clear(screen.getByRole('searchbox', { name: 'Search by name or slug' }));
    await user.type(screen.getByRole('searchbox', { name: 'Search by name or slug' }), 'nothing like it');
    expect(await screen.findByText('No product’s name or slug contains “nothing like it”')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Show every product' }));
    expect(await screen.findByText('1,200 products, newest first')).toBeInTheDocument();
    expect(location()).toHaveTextContent(/^\/catalogue$/);
  });

  it('opens a shared address with its sort and search', async () => {
    fetchMock.mockImplementation((url) => Promise.resolve(catalogueOf(30)(url)));
    showPage('/catalogue?sort=slug&order=asc&q=product-2');
    expect(await screen.findByText('Searched all 30 products: 11 match “product-2”')).toBeInTheDocument();
    expect(screen.getByRole('combobox', { name: 'Sort' })).toHaveDisplayValue('Slug, A to Z');
    expect(screen.getByRole('searchbox', { name: 'Search by name or slug' })).toHaveValue('product-2');
    expect(asked()[0]?.searchParams.get('sort_type')).toBe('slug');
  });

  it('says when the site has no products (the platform’s 404), with a way to create one', async () => {
    fetchMock.mockResolvedValue(
      json(404, { error: 'Not Found', message: 'Product does not exist or this site has no products', code: 404 }),
    );
    showPage();
    expect(await screen.findByText('No products on this site yet')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: 'New product' })).toHaveAttribute('href', pathTo('newProduct'));
  });

  it('words a failure with the one translator, and offers Try again where it may help', async () => {
    fetchMock.mockResolvedValueOnce(json(500, { error: 'Internal Server Error', message: 'Database unavailable', code: 500 }));
    const user = userEvent.setup({ delay: null });
    showPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The platform had a problem (500 Internal Server Error)');
    expect(alert).toHaveTextContent('The server said: “Database unavailable”');
    fetchMock.mockImplementation((url) => Promise.resolve(catalogueOf(3)(url)));
    await user.click(within(alert).getByRole('button', { name: 'Try again' }));
    expect(await screen.findByText('3 products, newest first')).toBeInTheDocument();
  });

  it('says our own server’s refusal as such, with nothing to try again', async () => {
    fetchMock.mockResolvedValue(json(403, { error: 'Forbidden', message: 'Your role on Sandbox does not allow this.', code: 403 }, false));
    showPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('You may not see the products of this site');
    expect(within(alert).queryByRole('button', { name: 'Try again' })).toBeNull();
  });

  it('shows an answer in another envelope as it arrived, with why, rather than an empty catalogue', async () => {
    const text = '{"data": [{"id": "1", "name": "Mug"}], "meta": {"total": 1}}';
    fetchMock.mockResolvedValue(json(200, text));
    const user = userEvent.setup({ delay: null });
    showPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('The platform’s list of products could not be read');
    expect(alert).toHaveTextContent('it has no "results"');
    await user.click(within(alert).getByText('The platform’s answer, as it arrived'));
    expect(within(alert).getByText(text)).toBeVisible();
    expect(screen.queryByRole('list', { name: 'Products of Sandbox' })).toBeNull();
  });

  it('refuses a product it could not open (no id) and shows it, rather than leaving it out', async () => {
    fetchMock.mockResolvedValue(
      json(200, {
        results: [{ id: '5', name: 'Mug' }, { name: 'Ghost' }],
        total_entries: 2,
        total_pages: 1,
        current_page: 1,
        per_page: 500,
      }),
    );
    showPage();
    const alert = await screen.findByRole('alert');
    expect(alert).toHaveTextContent('product 2 of the list cannot be opened: it has no "id"');
    expect(within(alert).getByText('The product, as read')).toBeInTheDocument();
  });
});
