/**
 * The Catalogue (`/catalogue`), its own page and chunk, loaded when a person heads for it: the site's
 * products as the platform has them, sorted by the platform, searched by name or slug, 500 a page; each
 * row opens the product in the editor. The sort, the search and the row last opened are in the address
 * (catalogue-address.ts), so Back, a reload and a shared link open the same list at the same row.
 */
import { Button, CloseButton, Group, NativeSelect, Skeleton, Stack, Text, TextInput, Title } from '@mantine/core';
import { useCallback, useMemo, useState } from 'react';
import { pathTo } from '@/lib/paths';
import { Link, useLocation, useNavigate } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import hidden from '@/lib/visually-hidden.module.css';
import { productReadingOf } from '../product-api';
import { catalogueHref, readCatalogueAddress, SORT_CHOICES, sortPhrase, type CatalogueAddress } from './catalogue-address';
import { CatalogueFailure, CatalogueUnreadable } from './catalogue-failure';
import { CatalogueList } from './catalogue-list';
import { pageOfRow, type CatalogueSource } from './catalogue-query';
import { searchForm } from './catalogue-rows';
import { useCatalogueRows } from './use-catalogue';
import classes from './catalogue.module.css';

export function CataloguePage() {
  const { search } = useLocation();
  const navigate = useNavigate();
  const { site } = useSite();
  const address = useMemo(() => readCatalogueAddress(search), [search]);
  const go = (next: Partial<CatalogueAddress>) => navigate(catalogueHref({ ...address, at: 0, ...next }), { replace: true });
  const sortValue = `${address.sort}:${address.order}`;
  return (
    <Stack gap="md">
      <title>{`Catalogue · ${site.name} · site-admin`}</title>
      <Stack gap={4}>
        <Title order={1}>Catalogue</Title>
        <Text size="sm" className={classes.muted}>
          The products of {site.name} as the platform has them. Open one to correct it.
        </Text>
      </Stack>
      <div className={classes.tools}>
        <TextInput
          label="Search by name or slug"
          type="search"
          value={address.q}
          onChange={(event) => go({ q: event.currentTarget.value })}
          w={{ base: '100%', xs: 320 }}
          rightSection={address.q !== '' ? <CloseButton aria-label="Clear the search" onClick={() => go({ q: '' })} /> : null}
        />
        <NativeSelect
          label="Sort"
          value={sortValue}
          onChange={(event) => {
            const [sort, order] = event.currentTarget.value.split(':');
            const choice = SORT_CHOICES.find((c) => c.sort === sort && c.order === order);
            if (choice) navigate(catalogueHref({ ...address, sort: choice.sort, order: choice.order, at: 0 }));
          }}
          data={SORT_CHOICES.map((choice) => ({ value: `${choice.sort}:${choice.order}`, label: choice.label }))}
          w={{ base: '100%', xs: 260 }}
        />
      </div>
      {/* A new order is a new list: its rows and position start afresh (a search narrows the same list). */}
      <CatalogueResults key={sortValue} address={address} onClearSearch={() => go({ q: '' })} />
    </Stack>
  );
}

function CatalogueResults({ address, onClearSearch }: { address: CatalogueAddress; onClearSearch: () => void }) {
  const navigate = useNavigate();
  const { site } = useSite();
  const currency = site.currencies[0] ?? 'usd';
  const source = useMemo<CatalogueSource>(
    () => ({ site: site.id, reading: productReadingOf(site), currency, sort: address.sort, order: address.order }),
    [site, currency, address.sort, address.order],
  );
  const query = searchForm(address.q.trim());
  const [range, setRange] = useState<readonly [number, number]>([address.at, address.at]);
  const rows = useCatalogueRows(source, query, range);
  const onRange = useCallback((start: number, end: number) => {
    setRange((current) =>
      pageOfRow(current[0]) === pageOfRow(start) && pageOfRow(current[1]) === pageOfRow(end) ? current : [start, end],
    );
  }, []);
  // Opening a row first writes its position into the catalogue's own address, so Back returns to it.
  const onOpen = useCallback((index: number) => navigate(catalogueHref({ ...address, at: index }), { replace: true }), [address, navigate]);
  const money = useMemo(() => ({ currency, decimals: site.decimals, locale: navigator.language }), [currency, site.decimals]);
  const { first, failed, unreadable } = rows;

  if (failed?.error) return <CatalogueFailure error={failed.error} retrying={failed.isFetching} onRetry={() => void failed.refetch()} />;
  if (unreadable) return <CatalogueUnreadable page={unreadable} />;
  if (first === undefined) {
    return (
      <Stack gap="xs" aria-busy="true">
        <span role="status" className={hidden.visuallyHidden}>
          Loading the products of {site.name}…
        </span>
        {Array.from({ length: 6 }, (_, i) => (
          <Skeleton key={i} height={36} />
        ))}
      </Stack>
    );
  }
  if (first.kind === 'empty') {
    return (
      <Stack gap="xs" align="flex-start" role="status">
        <Text fw={600}>No products on this site yet</Text>
        <Text size="sm" className={classes.muted}>
          The platform says {site.name} has no products. Create the first one, or import them from a spreadsheet.
        </Text>
        <Group gap="sm">
          <Button component={Link} to={pathTo('newProduct')}>
            New product
          </Button>
          <Button component={Link} to={pathTo('importProducts')} variant="default">
            Import products
          </Button>
        </Group>
      </Stack>
    );
  }
  const total = first.kind === 'page' ? first.total : null;
  const searching = rows.search !== null;
  return (
    <Stack gap="sm">
      <Text size="sm" role="status" className={classes.muted}>
        {rows.search ? searchSummary(address.q.trim(), rows.count, rows.search, total) : listSummary(total, rows.count, address)}
      </Text>
      {searching && rows.count === 0 && !rows.search?.reading ? (
        <Stack gap="xs" align="flex-start">
          <Text fw={600}>No product’s name or slug contains “{address.q.trim()}”</Text>
          <Button variant="default" onClick={onClearSearch}>
            Show every product
          </Button>
        </Stack>
      ) : (
        <CatalogueList
          key={query}
          count={rows.count}
          rowAt={rows.rowAt}
          initialIndex={address.at}
          onRange={onRange}
          onOpen={onOpen}
          money={money}
          label={`Products of ${site.name}`}
        />
      )}
    </Stack>
  );
}

const productsText = (n: number) => `${n.toLocaleString()} ${n === 1 ? 'product' : 'products'}`;

function listSummary(total: number | null, count: number, address: CatalogueAddress): string {
  return `${total !== null ? productsText(total) : `${productsText(count)} so far`}, ${sortPhrase(address)}`;
}

/** What a search found, honestly: the platform cannot search, so it says how much of the catalogue has been read. */
function searchSummary(typed: string, found: number, search: { searched: number; reading: boolean }, total: number | null): string {
  const matching = `${found.toLocaleString()} ${found === 1 ? 'matches' : 'match'} “${typed}”`;
  if (search.reading) {
    const of = total !== null ? ` of ${total.toLocaleString()}` : '';
    return `Searched ${search.searched.toLocaleString()}${of} products, reading the rest: ${matching} so far`;
  }
  return `Searched all ${productsText(search.searched)}: ${matching}`;
}
