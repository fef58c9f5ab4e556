/**
 * What a change will send, read-only: for a new product the editor's own Review (the same component, its
 * Edit buttons gone), for a correction the catalogue's change list (before → after, worked out from the
 * product as read when asked and the body), for an import its rows; and the exact body.
 */
import { Alert, Button, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo, useState } from 'react';
import { FormProvider, useForm } from 'react-hook-form';
import type { Change } from '@/contract/approvals';
import { isJsonObject } from '@/contract/site-api-basics';
import type { SiteInfo } from '@/contract/site-info';
import { readRecordedUpdate, updateChanges } from '@/features/activity/update-diff';
import { ChangeList } from '@/features/products/edit/change-list';
import { ProductSettingsContext } from '@/features/products/editor/settings';
import { decodeProduct, settingsForSite, type ProductSettings } from '@/features/products/model/codec';
import type { ProductForm } from '@/features/products/model/product-form';
import { productReadingOf } from '@/features/products/product-api';
import { JsonToSend, ReviewStep } from '@/features/products/steps/review-step';
import { reindentJson } from '@/lib/exact-json';
import { scrollRegionProps } from '@/lib/scroll-region';
import classes from './approvals.module.css';

const nothing = () => undefined;

/** The body as the person reads it: indented, nothing else changed (the hash is of the stored text). */
const shown = (body: string) => {
  try {
    return reindentJson(body);
  } catch {
    return body;
  }
};

function CreateReview({ body, settings }: { body: string; settings: ProductSettings }) {
  const values = useMemo((): ProductForm | null => {
    try {
      const json: unknown = JSON.parse(body);
      // The server held the body to a create's rules when it was asked for; the summary reads what it can.
      return isJsonObject(json) ? decodeProduct(json, settings.decimals) : null;
    } catch {
      return null;
    }
  }, [body, settings.decimals]);
  // The form only carries the values to the Review's summary; nothing here edits them.
  const form = useForm<ProductForm>({ defaultValues: values ?? undefined });
  if (!values) {
    return (
      <Stack gap="md">
        <Alert color="orange" title="The body is not a product this page can summarise">
          It is shown below exactly as it would be sent.
        </Alert>
        <JsonToSend json={body} label="The exact request body of the create" />
      </Stack>
    );
  }
  return (
    <ProductSettingsContext.Provider value={settings}>
      <FormProvider {...form}>
        <ReviewStep problems={[]} onGoTo={nothing} onEditStep={nothing} sentBody={shown(body)} />
      </FormProvider>
    </ProductSettingsContext.Provider>
  );
}

function UpdateReview({ change, site, settings }: { change: Change; site: SiteInfo | undefined; settings: ProductSettings }) {
  const read = useMemo(
    () => readRecordedUpdate({ product: change.product, body: change.body, before: change.before }, productReadingOf(site).shape),
    [change.product, change.body, change.before, site],
  );
  const changes = useMemo(() => (read.ok ? updateChanges(read.update, settings) : []), [read, settings]);
  return (
    <Stack gap="md">
      {read.ok ? (
        changes.length > 0 ? (
          <ChangeList changes={changes} label={`Changes to product ${change.product ?? ''}`} />
        ) : (
          <Text size="sm">No field changes: every value in the body is the value the product had when this was asked for.</Text>
        )
      ) : (
        <Alert color="orange" title="This change cannot be shown as a diff">
          {read.problem}. The body is shown below exactly as it would be sent.
        </Alert>
      )}
      {change.body !== null ? <JsonToSend json={shown(change.body)} label="The exact request body of the update" /> : null}
    </Stack>
  );
}

function nameOf(body: string): string {
  try {
    const json: unknown = JSON.parse(body);
    if (isJsonObject(json)) return [json.name, json.slug && `(${String(json.slug)})`].filter(Boolean).join(' ');
  } catch {
    // Shown as unnamed: the hash still says exactly what it is.
  }
  return '';
}

function ImportRows({ items }: { items: NonNullable<Change['items']> }) {
  const [all, setAll] = useState(false);
  const shownItems = all ? items : items.slice(0, 200);
  return (
    <Stack gap="xs">
      <Table.ScrollContainer minWidth={560} scrollAreaProps={scrollRegionProps('The import’s rows')}>
        <Table withTableBorder fz="sm" aria-label="The import’s rows">
          <Table.Thead>
            <Table.Tr>
              <Table.Th scope="col">Row</Table.Th>
              <Table.Th scope="col">Write</Table.Th>
              <Table.Th scope="col">Product</Table.Th>
              <Table.Th scope="col">Body’s SHA-256</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {shownItems.map((item) => (
              <Table.Tr key={item.key}>
                <Table.Td>{item.key}</Table.Td>
                <Table.Td>{item.method === 'POST' ? 'Create' : `Update of ${item.product ?? '?'}`}</Table.Td>
                <Table.Td>{nameOf(item.body) || <em>unnamed</em>}</Table.Td>
                <Table.Td className={classes.hash}>{item.hash}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {items.length > shownItems.length ? (
        <Text size="sm">
          {shownItems.length} of {items.length} rows shown.{' '}
          <Button variant="subtle" size="compact-sm" onClick={() => setAll(true)}>
            Show all
          </Button>
        </Text>
      ) : null}
    </Stack>
  );
}

export function ChangeContent({ change, site }: { change: Change; site: SiteInfo | undefined }) {
  const [settings] = useState(() => settingsForSite(navigator.language, site));
  return (
    <Stack gap="sm" component="section" aria-labelledby="what-will-be-sent">
      <Title order={2} size="h4" id="what-will-be-sent">
        {change.state === 'sent' ? 'What was sent' : 'What will be sent'}
      </Title>
      {change.kind === 'create' && change.body !== null ? <CreateReview body={change.body} settings={settings} /> : null}
      {change.kind === 'update' ? <UpdateReview change={change} site={site} settings={settings} /> : null}
      {change.kind === 'import' && change.items ? <ImportRows items={change.items} /> : null}
    </Stack>
  );
}
