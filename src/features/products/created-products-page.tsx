import { Alert, Anchor, Button, Loader, Stack, Table, Text, Title } from '@mantine/core';
import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { CREATED_PRODUCTS_PATHS, createdByTeamPageSchema, createdByTeamSchema } from '@/contract/activity';
import { callOwnApi } from '@/lib/api-client';
import { classifyApiError } from '@/lib/api-error';
import { describeFailure } from '@/lib/api-error-class';
import { DateTime } from '@/lib/date-time';
import { DetailsDrawer } from '@/lib/details-drawer';
import { reindentJson } from '@/lib/exact-json';
import { JsonBlock } from '@/lib/json-block';
import { pathTo, withQuery } from '@/lib/paths';
import { Link, useLocation, useNavigate } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import { listCreated } from './created-products';

/** A created product's platform id, as a link to the product in the Catalogue. */
function CatalogueLink({ id }: { id: string }) {
  return (
    <Anchor component={Link} to={pathTo('catalogueProduct', { id })} aria-label={`${id}: open in the Catalogue`}>
      {id}
    </Anchor>
  );
}

/** One product the team created: what was sent and what the platform answered, from the record. */
function TeamProduct({ seq, onClose }: { seq: number | null; onClose: () => void }) {
  const product = useQuery({
    queryKey: ['team-created', seq],
    queryFn: ({ signal }) => callOwnApi(CREATED_PRODUCTS_PATHS.one.replace(':seq', String(seq)), { answer: createdByTeamSchema }, signal),
    enabled: seq !== null,
  });
  const data = product.data;
  return (
    <DetailsDrawer
      opened={seq !== null}
      onClose={onClose}
      title={data?.name ?? 'Created product'}
      loading={product.isPending && seq !== null}
      failure={product.error}
      what="the product"
    >
      {data ? (
        <Stack gap="sm">
          <Text size="sm">
            Created by {data.by}, <DateTime date={new Date(data.at)} />
            {data.platformId ? ` · platform id ${data.platformId}` : ''}
          </Text>
          {data.body ? (
            <>
              <Text size="sm" fw={600}>
                Sent to the platform
              </Text>
              <JsonBlock json={reindentJson(data.body)} label="Sent to the platform" maxHeight="40vh" />
            </>
          ) : null}
          {data.answer ? (
            <>
              <Text size="sm" fw={600}>
                What the platform answered
              </Text>
              <JsonBlock json={reindentJson(data.answer)} label="What the platform answered" maxHeight="30vh" />
            </>
          ) : null}
        </Stack>
      ) : null}
    </DetailsDrawer>
  );
}

/** The product open in the drawer, from the page's address (`?product=<seq>`: the Activity page links there). */
function useOpenProduct(): [number | null, (seq: number | null) => void] {
  const { search } = useLocation();
  const navigate = useNavigate();
  const seq = Number(new URLSearchParams(search).get('product'));
  const open = Number.isSafeInteger(seq) && seq > 0 ? seq : null;
  const setOpen = (next: number | null) =>
    navigate(withQuery(pathTo('products'), new URLSearchParams(next === null ? {} : { product: String(next) })), { replace: true });
  return [open, setOpen];
}

/** What anyone created on this site, from the activity record: the team's list, not this browser's. */
function TeamCreated() {
  const { site } = useSite();
  const [open, setOpen] = useOpenProduct();
  const pages = useInfiniteQuery({
    queryKey: ['team-created-list', site.id],
    initialPageParam: null as number | null,
    queryFn: ({ pageParam, signal }) => {
      const query = new URLSearchParams({ site: site.id });
      if (pageParam !== null) query.set('before', String(pageParam));
      return callOwnApi(`${CREATED_PRODUCTS_PATHS.list}?${query.toString()}`, { answer: createdByTeamPageSchema }, signal);
    },
    getNextPageParam: (last) => last.next,
  });
  const products = pages.data?.pages.flatMap((page) => page.products) ?? [];
  if (pages.isPending) return <Loader aria-label="Loading the team’s created products" />;
  if (pages.isError) {
    return (
      <Alert color="red" title="The team’s created products could not be loaded">
        {describeFailure(classifyApiError(pages.error))}
      </Alert>
    );
  }
  if (products.length === 0) return <Text>Nobody has created a product on {site.name} yet.</Text>;
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={640}>
        <Table striped highlightOnHover aria-label="Created on this site by the team">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Name</Table.Th>
              <Table.Th scope="col">Slug</Table.Th>
              <Table.Th scope="col">Platform id</Table.Th>
              <Table.Th scope="col">By</Table.Th>
              <Table.Th scope="col">Created</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {products.map((product) => (
              <Table.Tr key={product.seq}>
                <Table.Td>
                  <Anchor component="button" type="button" onClick={() => setOpen(product.seq)} style={{ whiteSpace: 'nowrap' }}>
                    {product.name || 'Unnamed product'}
                  </Anchor>
                </Table.Td>
                <Table.Td>{product.slug ?? ''}</Table.Td>
                <Table.Td>{product.platformId ? <CatalogueLink id={product.platformId} /> : ''}</Table.Td>
                <Table.Td>{product.by}</Table.Td>
                <Table.Td>
                  <DateTime date={new Date(product.at)} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {pages.hasNextPage ? (
        <Button variant="default" w="fit-content" loading={pages.isFetchingNextPage} onClick={() => void pages.fetchNextPage()}>
          Show older
        </Button>
      ) : null}
      <TeamProduct seq={open} onClose={() => setOpen(null)} />
    </Stack>
  );
}

export function CreatedProductsPage() {
  const created = listCreated();
  return (
    <Stack gap="md">
      <Title order={1}>Created products</Title>
      <Text c="dimmed" size="sm">
        Every product created on this site, by anyone, from the activity record. Open one to see what was sent and what the platform
        answered.
      </Text>
      <TeamCreated />
      <Title order={2} fz="h3">
        From this browser
      </Title>
      <Text c="dimmed" size="sm">
        The last 50 created from this browser, kept here for what the team’s list cannot do: each reopens as its own summary, with Start a
        new product from this one, even when the server’s record cannot be read.
      </Text>
      {created.length === 0 ? (
        <Stack align="flex-start">
          <Text>No products have been created from this browser yet.</Text>
          <Button component={Link} to={pathTo('newProduct')}>
            New product
          </Button>
        </Stack>
      ) : (
        // On a phone the table scrolls sideways inside its frame; the page itself does not.
        <Table.ScrollContainer minWidth={560}>
          <Table striped highlightOnHover aria-label="Created products">
            <Table.Thead>
              <Table.Tr>
                <Table.Th scope="col">Name</Table.Th>
                <Table.Th scope="col">Slug</Table.Th>
                <Table.Th scope="col">Platform id</Table.Th>
                <Table.Th scope="col">Created</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {created.map((entry) => (
                <Table.Tr key={entry.localId}>
                  <Table.Td>
                    <Anchor component={Link} to={pathTo('createdProduct', { id: entry.localId })}>
                      {entry.body.name || 'Unnamed product'}
                    </Anchor>
                  </Table.Td>
                  <Table.Td>{entry.body.slug ?? ''}</Table.Td>
                  <Table.Td>
                    {typeof entry.response.id === 'string' && entry.response.id ? <CatalogueLink id={entry.response.id} /> : ''}
                  </Table.Td>
                  <Table.Td>
                    <DateTime date={new Date(entry.createdAt)} />
                  </Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Table.ScrollContainer>
      )}
    </Stack>
  );
}
