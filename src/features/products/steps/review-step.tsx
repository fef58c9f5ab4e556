/**
 * Everything on one page before Create: problems with links to their fields, a summary per step (its
 * rows read off the field registry) with a way back to edit it, and the exact JSON that will be sent.
 */
import { Alert, Anchor, Button, Card, CopyButton, Group, List, SimpleGrid, Stack, Table, Text, Title } from '@mantine/core';
import { scrollRegionProps } from '@/lib/scroll-region';
import { JsonBlock } from '@/lib/json-block';
import { useMemo, type ReactNode } from 'react';
import { useFormContext } from 'react-hook-form';
import { useProductSettings } from '../editor/settings';
import { createBodyText } from '../model/body-text';
import { encodeProduct, valueAt, type FormProblem } from '../model/codec';
import { describeInstant, parseDateText } from '../model/dates';
import type { ProductForm } from '../model/product-form';
import { STEPS, describePath, gridOf, stepOfPath, type FieldDef, type SiteFields, type StepId } from '../model/registry';

export interface ReviewStepProps {
  problems: FormProblem[];
  /** What happened to the last Create, or that it is under way: shown instead of "Ready to create". */
  status?: ReactNode;
  onGoTo: (path: string) => void;
  onEditStep: (index: number) => void;
  /**
   * Read-only, for a change waiting for approval: no Edit and no "Ready to create", and this exact body (as
   * stored, never encoded again) as the JSON to send.
   */
  sentBody?: string;
  /** The final button's words, for "then press …" (they are "Ask for approval" where the site's rule says so). */
  submitLabel?: string;
}

function StepCard({
  title,
  step,
  onEditStep,
  children,
}: {
  title: string;
  step: number;
  onEditStep?: (i: number) => void;
  children: ReactNode;
}) {
  return (
    <Card withBorder padding="md" component="section" aria-label={title}>
      <Group justify="space-between" mb="xs">
        <Title order={3} size="h5">
          {title}
        </Title>
        {onEditStep ? (
          <Button variant="subtle" size="compact-sm" onClick={() => onEditStep(step)} aria-label={`Edit ${title}`}>
            Edit
          </Button>
        ) : null}
      </Group>
      {children}
    </Card>
  );
}

function Fact({ label, value }: { label: string; value: ReactNode }) {
  return (
    <Group gap="xs" wrap="nowrap" align="baseline">
      <Text size="sm" c="dimmed" miw={140} maw={180}>
        {label}
      </Text>
      <Text size="sm" style={{ whiteSpace: 'pre-wrap', overflowWrap: 'anywhere' }}>
        {value === '' || value === undefined || value === null ? <em>empty</em> : value}
      </Text>
    </Group>
  );
}

/** One field's value as the review shows it: dates as the exact instant, local and UTC. */
function FieldValue({ def, value }: { def: FieldDef; value: unknown }) {
  const { locale } = useProductSettings();
  switch (def.kind) {
    case 'boolean':
      return <>{value === true ? 'Yes' : 'No'}</>;
    case 'references':
      return <>{(value as string[]).join(', ')}</>;
    case 'datetime': {
      const parsed = parseDateText(String(value ?? ''), locale);
      if (!parsed.ok) return <>{String(value)}</>;
      if (parsed.epoch === null) return <em>empty: {def.blankMeans}</em>;
      const { local, utc } = describeInstant(parsed.epoch, locale);
      return (
        <>
          {local}
          <br />
          <Text span size="xs" c="dimmed">
            {utc} (sent as {parsed.epoch})
          </Text>
        </>
      );
    }
    default:
      return <>{String(value ?? '')}</>;
  }
}

const isBlankValue = (value: unknown) => (Array.isArray(value) ? value.length === 0 : typeof value === 'string' && value.trim() === '');

function StepFacts({ step, values }: { step: StepId; values: ProductForm }) {
  const { fields } = useProductSettings();
  return (
    <Stack gap={4}>
      {fields.product
        .filter((def) => def.step === step && def.kind !== 'money')
        .map((def) => {
          const value = valueAt(values, def.path);
          // A blank date says what blank means ("never expires"); other blanks read "empty".
          const shown = isBlankValue(value) && def.kind !== 'datetime' ? '' : <FieldValue def={def} value={value} />;
          return <Fact key={def.wire} label={def.label} value={shown} />;
        })}
    </Stack>
  );
}

function PriceTable({ values }: { values: ProductForm }) {
  const { fields } = useProductSettings();
  const { currencies, columns } = gridOf(fields, 'product');
  const priced = currencies.filter((c) => columns.some((column) => (values.prices[c][column.index] ?? '').trim() !== ''));
  if (priced.length === 0) return <Text size="sm">No prices entered.</Text>;
  return (
    <Table.ScrollContainer minWidth={360} scrollAreaProps={scrollRegionProps('Prices entered')}>
      <Table withTableBorder fz="sm" aria-label="Prices entered">
        <Table.Thead>
          <Table.Tr>
            <Table.Th scope="col">Currency</Table.Th>
            {columns.map((column) => (
              <Table.Th scope="col" key={column.tier}>
                {column.label}
              </Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {priced.map((c) => (
            <Table.Tr key={c}>
              <Table.Th scope="row">{c.toUpperCase()}</Table.Th>
              {columns.map((column) => (
                <Table.Td key={column.tier}>{values.prices[c][column.index]}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </Table.ScrollContainer>
  );
}

/** "Pricing and inventory › USD, Display price (RRP): at most 2 decimal places", counting from 1. */
function problemLabel(fields: SiteFields, problem: FormProblem): string {
  const step = STEPS.find((s) => s.id === stepOfPath(problem.path));
  if (!problem.path) return problem.message;
  return `${step?.label ?? 'Product'} › ${describePath(fields, problem.path)}: ${problem.message}`;
}

/** Every problem as a link to its field; `verb` says what they stop ("creating", "saving"). */
export function ReviewProblems({ problems, onGoTo, verb }: { problems: FormProblem[]; onGoTo: (path: string) => void; verb: string }) {
  const settings = useProductSettings();
  return (
    <Alert color="red" title={`${problems.length} ${problems.length === 1 ? 'problem' : 'problems'} to fix before ${verb}`} role="alert">
      <List size="sm" spacing={4}>
        {problems.slice(0, 50).map((problem, i) => (
          <List.Item key={`${problem.path}-${i}`}>
            {problem.path ? (
              <Anchor component="button" type="button" size="sm" onClick={() => onGoTo(problem.path)}>
                {problemLabel(settings.fields, problem)}
              </Anchor>
            ) : (
              problemLabel(settings.fields, problem)
            )}
          </List.Item>
        ))}
      </List>
      {problems.length > 50 && <Text size="sm">…and {problems.length - 50} more.</Text>}
    </Alert>
  );
}

/** The exact request body, to read and to copy. */
export function JsonToSend({ json, label = 'The exact request body' }: { json: string; label?: string }) {
  return (
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
      <JsonBlock json={json} label={label} maxHeight={360} />
    </Card>
  );
}

export function ReviewStep({ problems, onGoTo, onEditStep: editStep, status, sentBody, submitLabel = 'Create product' }: ReviewStepProps) {
  const onEditStep = sentBody === undefined ? editStep : undefined;
  const { getValues } = useFormContext<ProductForm>();
  const settings = useProductSettings();
  const values = getValues();
  const body = useMemo(() => encodeProduct(values, settings).body, [values, settings]);
  const json = sentBody ?? createBodyText(body);
  const optionCount = values.attributes.reduce((n, a) => n + a.options.length, 0);

  return (
    <Stack gap="md">
      {status}
      {problems.length > 0 ? (
        <ReviewProblems problems={problems} onGoTo={onGoTo} verb="creating" />
      ) : status || sentBody !== undefined ? null : (
        <Alert color="teal" title="Ready to create">
          Everything checks out against the platform's rules. Review the summary, then press {submitLabel}.
        </Alert>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <StepCard title="Basics" step={0} onEditStep={onEditStep}>
          <StepFacts step="basics" values={values} />
        </StepCard>
        <StepCard title="Placement and details" step={1} onEditStep={onEditStep}>
          <StepFacts step="placement" values={values} />
        </StepCard>
        <StepCard title="Pricing and inventory" step={2} onEditStep={onEditStep}>
          <PriceTable values={values} />
          <Stack gap={4} mt="xs">
            <StepFacts step="pricing" values={values} />
          </Stack>
        </StepCard>
        <StepCard title="Attributes and options" step={3} onEditStep={onEditStep}>
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
        </StepCard>
      </SimpleGrid>
      <JsonToSend json={json} />
    </Stack>
  );
}
