/**
 * Everything on one page before Create: problems with links to their fields, a summary per step with a
 * way back to edit it, and the exact JSON that will be sent.
 */
import { Alert, Anchor, Button, Card, Code, CopyButton, Group, List, ScrollArea, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { useMemo } from 'react';
import { useFormContext } from 'react-hook-form';
import { CURRENCIES, PRODUCT_FIELD_SLOTS } from '@/contract/site-api';
import { inventoryLabel, productFieldLabel, productTierLabels } from '../editor/labels';
import { encodeProduct, type FormProblem } from '../model/codec';
import type { ProductForm } from '../model/product-form';
import { STEPS, stepOfPath } from '../model/steps';

export interface ReviewStepProps {
  problems: FormProblem[];
  onGoTo: (path: string) => void;
  onEditStep: (index: number) => void;
}

function Group2({ title, step, onEditStep, children }: { title: string; step: number; onEditStep: (i: number) => void; children: React.ReactNode }) {
  return (
    <Card withBorder padding="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        <Button variant="subtle" size="compact-sm" onClick={() => onEditStep(step)} aria-label={`Edit ${title}`}>
          Edit
        </Button>
      </Group>
      {children}
    </Card>
  );
}

function Fact({ label, value }: { label: string; value: React.ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" miw={140}>
        {label}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {value === '' || value === undefined ? <em>empty</em> : value}
      </Text>
    </Group>
  );
}

function problemLabel(problem: FormProblem): string {
  const step = STEPS.find((s) => s.id === stepOfPath(problem.path));
  const where = problem.path
    .replace(/^attributes\.(\d+)/, (_, a: string) => `Attribute ${Number(a) + 1}`)
    .replace(/\.options\.(\d+)/, (_, o: string) => ` › option ${Number(o) + 1}`)
    .replace(/\./g, ' › ');
  return `${step?.label ?? 'Product'} › ${where || 'product'}: ${problem.message}`;
}

export function ReviewStep({ problems, onGoTo, onEditStep }: ReviewStepProps) {
  const { getValues } = useFormContext<ProductForm>();
  const values = getValues();
  const body = useMemo(() => encodeProduct(values).body, [values]);
  const json = JSON.stringify(body, null, 2);
  const tiers = productTierLabels();
  const priced = CURRENCIES.filter((c) => values.prices[c].some((cell) => cell.trim() !== ''));
  const optionCount = values.attributes.reduce((n, a) => n + a.options.length, 0);

  return (
    <Stack gap="md">
      {problems.length > 0 ? (
        <Alert color="red" title={`${problems.length} ${problems.length === 1 ? 'problem' : 'problems'} to fix before creating`} role="alert">
          <List size="sm" spacing={4}>
            {problems.slice(0, 50).map((problem, i) => (
              <List.Item key={`${problem.path}-${i}`}>
                {problem.path ? (
                  <Anchor component="button" type="button" size="sm" onClick={() => onGoTo(problem.path)}>
                    {problemLabel(problem)}
                  </Anchor>
                ) : (
                  problemLabel(problem)
                )}
              </List.Item>
            ))}
          </List>
          {problems.length > 50 && <Text size="sm">…and {problems.length - 50} more.</Text>}
        </Alert>
      ) : (
        <Alert color="teal" title="Ready to create">
          Everything checks out against the platform's rules. Review the summary, then press Create product.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Group2 title="Basics" step={0} onEditStep={onEditStep}>
          <Stack gap={4}>
            <Fact label="Name" value={values.name} />
            <Fact label="Slug" value={values.slug} />
            <Fact label="Enabled" value={values.enabled ? 'Yes' : 'No'} />
            <Fact label="Weighting" value={values.weighting} />
            <Fact label="Release" value={values.releaseAt} />
            <Fact label="Expiry" value={values.expiryAt} />
          </Stack>
        </Group2>
        <Group2 title="Placement and details" step={1} onEditStep={onEditStep}>
          <Stack gap={4}>
            <Fact label="Categories" value={values.categories.join(', ')} />
            <Fact label="Secure zones" value={values.secureZones.join(', ')} />
            {PRODUCT_FIELD_SLOTS.map((slot, i) => (
              <Fact key={slot} label={productFieldLabel(i)} value={values.fields[i]} />
            ))}
          </Stack>
        </Group2>
        <Group2 title="Pricing and inventory" step={2} onEditStep={onEditStep}>
          {priced.length === 0 ? (
            <Text size="sm">No prices entered.</Text>
          ) : (
            <Table withTableBorder fz="sm" aria-label="Prices entered">
              <Table.Thead>
                <Table.Tr>
                  <Table.Th scope="col">Currency</Table.Th>
                  {tiers.map((t) => (
                    <Table.Th scope="col" key={t}>
                      {t}
                    </Table.Th>
                  ))}
                </Table.Tr>
              </Table.Thead>
              <Table.Tbody>
                {priced.map((c) => (
                  <Table.Tr key={c}>
                    <Table.Th scope="row">{c.toUpperCase()}</Table.Th>
                    {values.prices[c].map((cell, i) => (
                      <Table.Td key={i}>{cell}</Table.Td>
                    ))}
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
          <Stack gap={4} mt="xs">
            {values.inventory.map((v, i) => (
              <Fact key={i} label={inventoryLabel(i)} value={v} />
            ))}
          </Stack>
        </Group2>
        <Group2 title="Attributes and options" step={3} onEditStep={onEditStep}>
          {values.attributes.length === 0 ? (
            <Text size="sm">No attributes.</Text>
          ) : (
            <Stack gap={4}>
              <Text size="sm">
                {values.attributes.length} attributes, {optionCount} options in all.
              </Text>
              {values.attributes.slice(0, 30).map((a) => (
                <Fact key={a.key} label={a.name || '(no name)'} value={a.options.map((o) => o.name || '(no name)').join(', ')} />
              ))}
            </Stack>
          )}
        </Group2>
      </SimpleGrid>
      <Card withBorder padding="md" component="section" aria-label="JSON to send">
        <Group justify="space-between" mb="xs">
          <Title order={3} size="h5">
            JSON to send
          </Title>
          <CopyButton value={json}>
            {({ copied, copy }) => (
              <Button variant="default" size="compact-sm" onClick={copy}>
                {copied ? 'Copied' : 'Copy JSON'}
              </Button>
            )}
          </CopyButton>
        </Group>
        <ScrollArea.Autosize mah={360} type="auto">
          <Code block aria-label="The exact request body" tabIndex={0}>
            {json}
          </Code>
        </ScrollArea.Autosize>
      </Card>
    </Stack>
  );
}
