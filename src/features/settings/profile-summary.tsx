/**
 * The active site's profile, readable: each label beside the wire key it names, the currencies and
 * precision, the categories and secure zones by name, the defaults and the forms.
 */
import { Badge, Code, Group, List, Stack, Table, Text, Title } from '@mantine/core';
import { scrollRegionProps } from '@/lib/scroll-region';
import type { ReactNode } from 'react';
import {
  CURRENCIES,
  OPTION_FIELD_SLOTS,
  OPTION_INVENTORY_KEY,
  PRODUCT_FIELD_SLOTS,
  PRODUCT_INVENTORY_SLOTS,
  optionFieldKey,
  optionPriceKey,
  productFieldKey,
  productInventoryKey,
  productPriceKey,
} from '@/contract/site-api';
import type { SiteInfo } from '@/contract/site-info';
import { flattenReferences, type ReferenceNode } from '@/contract/site-profile';

interface Row {
  label: ReactNode;
  wire: string;
  note?: ReactNode;
}

function LabelTable({ caption, rows }: { caption: string; rows: Row[] }) {
  return (
    <Table.ScrollContainer minWidth={520} scrollAreaProps={scrollRegionProps(caption)}>
      <Table withTableBorder fz="sm" verticalSpacing={6}>
        <Table.Caption style={{ captionSide: 'top', textAlign: 'left', fontWeight: 600 }}>{caption}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Label</Table.Th>
            <Table.Th scope="col">Wire key</Table.Th>
            <Table.Th scope="col">Notes</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.wire}>
              <Table.Td>{row.label}</Table.Td>
              <Table.Td>
                <Code>{row.wire}</Code>
              </Table.Td>
              <Table.Td>{row.note}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

const fallback = (label: string | undefined, honest: string) =>
  label ?? (
    <Text span size="sm" c="dimmed">
      {honest} (default)
    </Text>
  );

function ReferenceList({ title, nodes }: { title: string; nodes: readonly ReferenceNode[] | undefined }) {
  const flat = flattenReferences(nodes ?? []);
  return (
    <Stack gap={4}>
      <Text fw={600} size="sm">
        {title}
      </Text>
      {flat.length === 0 ? (
        <Text size="sm" c="dimmed">
          None named: staff type their identifiers.
        </Text>
      ) : (
        <List size="sm" spacing={2}>
          {flat.map((node) => (
            <List.Item key={node.id} style={{ marginInlineStart: `${node.trail.length * 1.25}rem` }}>
              {node.name} <Code>{node.id}</Code>
            </List.Item>
          ))}
        </List>
      )}
    </Stack>
  );
}

export function ProfileSummary({ site }: { site: SiteInfo }) {
  const labels = site.labels;
  const productFields: Row[] = PRODUCT_FIELD_SLOTS.map((slot) => {
    const field = labels?.productFields?.[String(slot) as '1'];
    return {
      label: fallback(field?.label, `Product field ${slot}`),
      wire: productFieldKey(slot),
      note: [field?.multiline ? 'multi-line' : '', field?.help ?? ''].filter(Boolean).join(' · '),
    };
  });
  const tierNames: Record<number, string> = { 1: 'Price', 2: 'Display price (RRP)', 3: 'Price tier 3', 4: 'Price tier 4' };
  const tiers: Row[] = ([1, 2, 3, 4] as const).map((tier) => {
    const label = labels?.priceTiers?.[String(tier) as '1'];
    return {
      label: fallback(label?.label, tierNames[tier] ?? ''),
      wire: productPriceKey('usd', tier).replace('/usd/', '/<currency>/'),
      note: label?.hidden ? (
        <Badge color="gray" variant="light">
          hidden, never sent
        </Badge>
      ) : (
        label?.help
      ),
    };
  });
  const optionTiers: Row[] = ([1, 2] as const).map((tier) => {
    const label = labels?.optionPriceTiers?.[String(tier) as '1'];
    return {
      label: fallback(label?.label, tier === 1 ? 'Added to price' : 'Added to display price'),
      wire: optionPriceKey('usd', tier).replace('/usd/', '/<currency>/'),
      note: label?.hidden ? (
        <Badge color="gray" variant="light">
          hidden, never sent
        </Badge>
      ) : (
        label?.help
      ),
    };
  });
  const inventory: Row[] = PRODUCT_INVENTORY_SLOTS.map((slot) => {
    const setting = labels?.inventory?.[String(slot) as '1'];
    return {
      label: fallback(setting?.label, `Inventory setting ${slot}`),
      wire: productInventoryKey(slot),
      note:
        setting?.kind === 'choice'
          ? `one of: ${setting.choices.map((c) => `${c.label} (${c.value})`).join(', ')}`
          : setting?.kind === 'number'
            ? 'a whole number'
            : setting?.help,
    };
  });
  const optionFields: Row[] = [
    ...OPTION_FIELD_SLOTS.map((slot) => {
      const field = labels?.optionFields?.[String(slot) as '2'];
      return { label: fallback(field?.label, `Option field ${slot}`), wire: optionFieldKey(slot), note: field?.help };
    }),
    { label: fallback(labels?.optionStock?.label, 'Stock'), wire: OPTION_INVENTORY_KEY, note: labels?.optionStock?.help },
  ];
  const forms = Object.entries(site.forms ?? {});
  const hiddenCurrencies = CURRENCIES.filter((c) => !site.currencies.includes(c));

  return (
    <Stack gap="lg">
      <Group gap="xl" align="flex-start">
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            Sells in
          </Text>
          <Text fw={600}>{site.currencies.map((c) => c.toUpperCase()).join(', ')}</Text>
          {hiddenCurrencies.length > 0 && (
            <Text size="xs" c="dimmed">
              {hiddenCurrencies.map((c) => c.toUpperCase()).join(', ')}: not shown, never sent
            </Text>
          )}
        </Stack>
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            Price precision
          </Text>
          <Text fw={600}>{site.decimals} decimal places</Text>
        </Stack>
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            Categories are sent as
          </Text>
          <Text fw={600}>
            {site.references?.categoryEncoding === 'ids' ? <Code>{'["158198"]'}</Code> : <Code>{'[{"id": "158198"}]'}</Code>}
          </Text>
        </Stack>
        <Stack gap={2}>
          <Text size="sm" c="dimmed">
            A new product starts
          </Text>
          <Text fw={600}>
            {site.defaults?.enabled === false ? 'hidden' : 'enabled'}
            {site.defaults?.weighting ? `, weighting ${site.defaults.weighting}` : ''}
            {site.defaults?.categories?.length
              ? `, in ${site.defaults.categories.length} ${site.defaults.categories.length === 1 ? 'category' : 'categories'}`
              : ''}
          </Text>
        </Stack>
      </Group>
      <LabelTable caption="Product fields" rows={productFields} />
      <LabelTable caption="Price tiers of the product" rows={tiers} />
      <LabelTable caption="Price tiers of an option" rows={optionTiers} />
      <LabelTable caption="Inventory settings" rows={inventory} />
      <LabelTable caption="Option fields" rows={optionFields} />
      <Group align="flex-start" gap="xl">
        <ReferenceList title="Categories" nodes={site.references?.categories} />
        <ReferenceList title="Secure zones" nodes={site.references?.secureZones} />
      </Group>
      <Stack gap={4}>
        <Title order={3} size="h5">
          Forms
        </Title>
        {forms.length === 0 ? (
          <Text size="sm" c="dimmed">
            No forms named: cases show their record’s own name and readable labels of their keys.
          </Text>
        ) : (
          <List size="sm" spacing={4}>
            {forms.map(([id, form]) => (
              <List.Item key={id}>
                Form <Code>{id}</Code>: {form.name ?? '(no name)'}
                {form.fields && Object.keys(form.fields).length > 0 && (
                  <Text span size="sm" c="dimmed">
                    {' '}
                    ·{' '}
                    {Object.entries(form.fields)
                      .map(([key, label]) => `${label} (${key})`)
                      .join(', ')}
                  </Text>
                )}
              </List.Item>
            ))}
          </List>
        )}
      </Stack>
    </Stack>
  );
}
