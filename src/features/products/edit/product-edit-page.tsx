/**
 * A product of the catalogue in the editor, to correct it (`/catalogue/:id`): the product is read from
 * the platform and opened in the same five steps as a new product. This module owns the reading and its
 * states (loading, no such product, a failure, an answer that is not a product); edit-session.tsx owns
 * the work on the product once it is read.
 */
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { PLATFORM_ID_PATTERN } from '@/contract/products';
import { ApiError, classifyApiError } from '@/lib/api-error';
import { explainFailure, failureSentence, shouldRetryQuery } from '@/lib/api-error-class';
import { JsonBlock } from '@/lib/json-block';
import { pathTo } from '@/lib/paths';
import { Link, usePathParams } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import { settingsForSite } from '../model/codec';
import { getProduct, productReadingOf } from '../product-api';
import { EditSession } from './edit-session';

function BackToCatalogue() {
  return (
    <Button component={Link} to={pathTo('catalogue')} variant="default" w="fit-content">
      Back to the catalogue
    </Button>
  );
}

function NoSuchProduct({ id }: { id: string }) {
  return (
    <Stack align="flex-start" maw={640}>
      <Title order={1}>No such product on this site</Title>
      <Text>
        The platform has no product <code>{id}</code> on this site. It may belong to another site, or the link may be mistyped.
      </Text>
      <BackToCatalogue />
    </Stack>
  );
}

/** Whether a read failed because the platform has no such product (its own 404). */
const isNoSuchProduct = (error: unknown) => {
  const failure = classifyApiError(error);
  return error instanceof ApiError && failure.type === 'answered' && failure.by === 'platform' && failure.status === 404;
};

export function ProductEditPage() {
  const id = usePathParams('catalogueProduct')?.id ?? '';
  const { site } = useSite();
  if (!PLATFORM_ID_PATTERN.test(id)) return <NoSuchProduct id={id} />;
  // Another product or another site is another editor: nothing carries over.
  return <ProductEdit key={`${site.id}/${id}`} id={id} />;
}

function ProductEdit({ id }: { id: string }) {
  const { site } = useSite();
  const [settings] = useState(() => settingsForSite(navigator.language, site));
  const reading = useMemo(() => productReadingOf(site), [site]);
  const read = useQuery({
    queryKey: ['catalogue-product', site.id, id, reading],
    queryFn: async ({ signal }) => {
      const answer = await getProduct(id, reading, signal);
      // From here the page opens the editor: timed to its first paint (edit-session.tsx).
      performance.mark('product-edit:read');
      return answer;
    },
    retry: shouldRetryQuery,
    // The editor holds the product as read; a refetch in the background would change its base unseen.
    staleTime: Infinity,
    gcTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });

  if (read.isPending) {
    return (
      <Stack>
        <Title order={1}>Edit product</Title>
        <Text c="dimmed" role="status">
          Reading product {id} from {site.name}…
        </Text>
      </Stack>
    );
  }
  if (read.isError) {
    if (isNoSuchProduct(read.error)) return <NoSuchProduct id={id} />;
    const text = explainFailure(read.error, {
      kind: 'other',
      textOf: (_failure, what) => ({ title: 'The product could not be read', message: `${what} Nothing was changed.` }),
    });
    return (
      <Stack align="flex-start" maw={720}>
        <Title order={1}>Edit product</Title>
        <Alert color="red" title={text.title} role="alert" w="100%">
          {failureSentence(text)}
        </Alert>
        <Group>
          {text.canRetry && (
            <Button onClick={() => void read.refetch()} loading={read.isFetching}>
              Try again
            </Button>
          )}
          <BackToCatalogue />
        </Group>
      </Stack>
    );
  }
  if (read.data.kind === 'unreadable') {
    return (
      <Stack maw={900}>
        <Title order={1}>Edit product</Title>
        <Alert color="orange" title="The platform’s answer is not a product site-admin can read" role="alert">
          <Text size="sm">
            Why: {read.data.problem}. Nothing can be edited from here until the site’s profile says how this platform writes a product (
            <code>sites[].products.record</code>, see Settings). What it answered:
          </Text>
        </Alert>
        <JsonBlock json={read.data.text} label="What the platform answered" maxHeight={480} />
        <BackToCatalogue />
      </Stack>
    );
  }
  return <EditSession id={id} read={read.data} settings={settings} reading={reading} siteName={site.name} />;
}
