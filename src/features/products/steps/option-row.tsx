/**
 * One option of an attribute: a one-line summary that mounts no inputs until it is expanded.
 */
import { Badge, Box, Group, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { memo } from 'react';
import { get, useFormContext, useFormState, useWatch, type FieldPath } from 'react-hook-form';
import { RegistryField } from '../editor/form-fields';
import { RowActions } from '../editor/row-actions';
import { useExpanded } from '../editor/expansion';
import { PriceGrid } from '../editor/price-grid';
import type { ProductForm } from '../model/product-form';
import { useProductSettings } from '../editor/settings';
import classes from './rows.module.css';

export interface OptionRowProps {
  attributeIndex: number;
  index: number;
  optionKey: string;
  count: number;
  onMove: (from: number, to: number) => void;
  onDuplicate: (index: number) => void;
  onRemove: (index: number) => void;
}

function OptionSummary({ base, index }: { base: string; index: number }) {
  const { control } = useFormContext<ProductForm>();
  const [name, enabled, usd, inventory] = useWatch({
    control,
    name: [`${base}.name`, `${base}.enabled`, `${base}.prices.usd.0`, `${base}.inventory`] as FieldPath<ProductForm>[],
  }) as [string, boolean, string, string];
  const { errors } = useFormState({ control, name: base as FieldPath<ProductForm> });
  const hasErrors = Boolean(get(errors, base));
  return (
    <Group gap="xs" wrap="nowrap" className={classes.summaryText}>
      <Text size="sm" fw={500} truncate>
        {name || <em>Option {index + 1} (no name yet)</em>}
      </Text>
      {!enabled && <Badge size="xs" variant="outline" color="gray">Hidden</Badge>}
      {usd && <Text size="xs" c="dimmed">USD +{usd}</Text>}
      {inventory && <Text size="xs" c="dimmed">stock {inventory}</Text>}
      {hasErrors && <Badge size="xs" color="red">Has errors</Badge>}
    </Group>
  );
}

function OptionEditor({ base }: { base: string }) {
  const prefix = `${base}.`;
  const { fields } = useProductSettings();
  const nameAndStock = fields.option.filter((def) => def.path === 'name' || def.path === 'inventory');
  const enabled = fields.option.find((def) => def.path === 'enabled');
  const texts = fields.option.filter((def) => def.path.startsWith('fields.'));
  return (
    <Stack gap="sm" className={classes.editor}>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {nameAndStock.map((def) => (
          <RegistryField key={def.wire} def={def} base={prefix} />
        ))}
      </SimpleGrid>
      {enabled && <RegistryField def={enabled} base={prefix} />}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {texts.map((def) => (
          <RegistryField key={def.wire} def={def} base={prefix} />
        ))}
      </SimpleGrid>
      <PriceGrid
        scope="option"
        base={`${base}.prices`}
        caption="Option price adjustments"
        description="Amounts added to the product's prices, in major units (e.g. 2.50)."
      />
    </Stack>
  );
}

export const OptionRow = memo(function OptionRow({ attributeIndex, index, optionKey, count, onMove, onDuplicate, onRemove }: OptionRowProps) {
  const base = `attributes.${attributeIndex}.options.${index}`;
  const [open, toggle] = useExpanded(optionKey);
  const label = `option ${index + 1}`;
  return (
    <Box className={classes.row} data-open={open || undefined}>
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <UnstyledButton onClick={toggle} aria-expanded={open} className={classes.summary}>
          <Text span size="sm" aria-hidden="true" className={classes.chevron}>
            {open ? '▾' : '▸'}
          </Text>
          <VisuallyLabel text={`${open ? 'Collapse' : 'Expand'} ${label}`} />
          {open ? (
            <Text size="sm" fw={500}>
              Option {index + 1}
            </Text>
          ) : (
            <OptionSummary base={base} index={index} />
          )}
        </UnstyledButton>
        <RowActions label={label} index={index} count={count} onMove={onMove} onDuplicate={onDuplicate} onRemove={onRemove} />
      </Group>
      {open && <OptionEditor base={base} />}
    </Box>
  );
});

function VisuallyLabel({ text }: { text: string }) {
  return <span className={classes.srOnly}>{text}: </span>;
}
