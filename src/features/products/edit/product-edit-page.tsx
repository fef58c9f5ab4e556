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
import { Link, usePathParams, usePathState } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import { productFingerprint, readProductRecord, updateBodyFromShape } from '@/contract/products';
import type { Change } from '@/contract/approvals';
import { isJsonObject } from '@/contract/site-api-basics';
import { changeQuery } from '@/features/approvals/approvals-api';
import { applyUpdate } from '@/features/activity/update-diff';
import { ownApiFailureText } from '@/lib/own-api-failure';
import { decodeProduct, settingsForSite, type ProductSettings } from '../model/codec';
import { getProduct, productReadingOf, type ProductRead, type ProductReading } from '../product-api';
import { ReadingChange } from '../approval';
import { EditSession, type PendingUpdate } from './edit-session';

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
  const pending = usePathState('catalogueProduct');
  if (!PLATFORM_ID_PATTERN.test(id)) return <NoSuchProduct id={id} />;
  if (pending?.change) return <PendingEdit key={pending.change} id={id} change={pending.change} version={pending.version} />;
  // Another product or another site is another editor: nothing carries over.
  return <ProductEdit key={`${site.id}/${id}`} id={id} />;
}

type Read = Extract<ProductRead, { kind: 'read' }>;

/**
 * A pending change of the product, as its author opens it again: the product as read when the change was
 * asked for (its `before`, with the fingerprint the update carries), and the stored body applied to it,
 * through the same codec as a draft. The product is also read as it is now: where it changed since (a
 * change sent back to its author for that reason, or one that would be), `now` holds it, so the editor
 * shows what changed there beside the change's own edits before anything is asked again; asking again on
 * the stored `before` would only be sent back once more. Or why it cannot be opened here.
 */
async function openPending(
  change: Change,
  id: string,
  reading: ProductReading,
  settings: ProductSettings,
  signal: AbortSignal,
): Promise<{ ok: true; read: Read; values: PendingUpdate['values']; now: Read | null } | { ok: false; why: string }> {
  if (change.kind !== 'update' || change.body === null || change.before === null || change.base === null || change.product !== id) {
    return { ok: false, why: 'It is not a correction of this product.' };
  }
  if (!change.mayEdit) return { ok: false, why: 'Only its author may edit it, while it is still open.' };
  let before: unknown;
  let body: unknown;
  try {
    before = JSON.parse(change.before);
    body = JSON.parse(change.body);
  } catch {
    return { ok: false, why: 'What it stores is not JSON.' };
  }
  const record = readProductRecord(before, reading.shape);
  if (!record.ok || !isJsonObject(body)) return { ok: false, why: 'What it stores is not a product the editor can read.' };
  const fingerprint = await productFingerprint(before);
  if (fingerprint !== change.base) return { ok: false, why: 'The product it stores does not match its fingerprint.' };
  const after = applyUpdate(record.record, updateBodyFromShape(body, reading.shape));
  let now: ProductRead;
  try {
    now = await getProduct(id, reading, signal);
  } catch (error) {
    if (isNoSuchProduct(error)) return { ok: false, why: 'The platform no longer has this product, so the change can only be withdrawn.' };
    const text = explainFailure(error, {
      kind: 'other',
      textOf: (_failure, what) => ({ title: 'The product could not be read', message: `${what} Nothing was changed.` }),
    });
    return { ok: false, why: `The product as it is now could not be read, to show what changed since. ${failureSentence(text)}` };
  }
  if (now.kind === 'unreadable') return { ok: false, why: `The product as it is now is not one site-admin can read: ${now.problem}.` };
  return {
    ok: true,
    read: { kind: 'read', record: record.record, unknown: record.unknown, fingerprint, text: change.before },
    values: decodeProduct(after, settings.decimals),
    now: now.fingerprint === change.base ? null : now,
  };
}

function PendingEdit({ id, change, version }: { id: string; change: string; version: number | undefined }) {
  const { site } = useSite();
  const [settings] = useState(() => settingsForSite(navigator.language, site));
  const reading = useMemo(() => productReadingOf(site), [site]);
  const read = useQuery({
    ...changeQuery(change),
    staleTime: Infinity,
    refetchOnWindowFocus: false,
  });
  // The change's version names what is opened; the product, the site's reading and settings are fixed for the page.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  const opened = useQuery({
    queryKey: ['pending-edit', change, read.data?.version, reading],
    queryFn: ({ signal }) => openPending(read.data as Change, id, reading, settings, signal),
    enabled: read.data !== undefined,
    staleTime: Infinity,
    gcTime: 0,
  });
  const failed = read.error ?? opened.error;
  if (failed) {
    return (
      <Stack align="flex-start" maw={720}>
        <Title order={1}>Edit the change</Title>
        <Alert color="red" title="The change could not be read" role="alert" w="100%">
          {ownApiFailureText(failed)}
        </Alert>
      </Stack>
    );
  }
  if (!read.data || !opened.data) {
    return <ReadingChange />;
  }
  if (!opened.data.ok) {
    return (
      <Stack align="flex-start" maw={720}>
        <Title order={1}>Edit the change</Title>
        <Alert color="orange" title="This change cannot be edited here" role="alert" w="100%">
          {opened.data.why}
        </Alert>
      </Stack>
    );
  }
  return (
    <EditSession
      id={id}
      read={opened.data.read}
      settings={settings}
      reading={reading}
      siteName={site.name}
      pending={{ change: read.data, version: version ?? read.data.version, values: opened.data.values, now: opened.data.now }}
    />
  );
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
