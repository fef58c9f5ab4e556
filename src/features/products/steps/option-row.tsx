/**
 * One option of an attribute: a one-line summary that mounts no inputs until it is expanded.
 */
import { Badge, Box, Button, Group, Menu, SimpleGrid, Stack, Text, UnstyledButton } from '@mantine/core';
import { memo, useState } from 'react';
import { get, useFormContext, useFormState, useWatch, type FieldPath } from 'react-hook-form';
import { PART_WORDS, partValues, type OptionPart } from '../editor/bulk';
import { useMarkChanged } from '../editor/change-signal';
import { ReadOnlyFieldset, useEditing } from '../editor/editing';
import { RegistryField } from '../editor/form-fields';
import { RowActions } from '../editor/row-actions';
import { useExpanded } from '../editor/expansion';
import { PriceGrid } from '../editor/price-grid';
import type { ProductForm } from '../model/product-form';
import { useProductSettings } from '../editor/settings';
import hidden from '@/lib/visually-hidden.module.css';
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
      {!enabled && (
        <Badge size="xs" variant="outline" color="gray">
          Hidden
        </Badge>
      )}
      {usd && (
        <Text size="xs" c="dimmed">
          USD +{usd}
        </Text>
      )}
      {inventory && (
        <Text size="xs" c="dimmed">
          stock {inventory}
        </Text>
      )}
      {hasErrors && (
        <Badge size="xs" color="red">
          Has errors
        </Badge>
      )}
    </Group>
  );
}

/**
 * Copying between the options of one attribute: this option's prices, fields or stock to all the others,
 * or the option above's to this one. Typing 12 prices for each of 10 options is not the only way.
 */
function CopyTools({ attributeIndex, index, count }: { attributeIndex: number; index: number; count: number }) {
  const { getValues, setValue, trigger } = useFormContext<ProductForm>();
  const markChanged = useMarkChanged();
  const [notice, setNotice] = useState('');
  const optionPath = (i: number) => `attributes.${attributeIndex}.options.${i}` as const;
  const copy = (from: number, to: readonly number[], part: OptionPart) => {
    const source = getValues(optionPath(from));
    const paths: FieldPath<ProductForm>[] = [];
    for (const target of to) {
      for (const [path, value] of partValues(source, part)) {
        const full = `${optionPath(target)}.${path}` as FieldPath<ProductForm>;
        setValue(full, value as never, { shouldDirty: true });
        paths.push(full);
      }
    }
    markChanged();
    // Marks come from the same rules as Create: a cell that could not be read is marked where it lands.
    void trigger(paths);
    return source;
  };
  const toAll = (part: OptionPart) => {
    const others = Array.from({ length: count }, (_, i) => i).filter((i) => i !== index);
    copy(index, others, part);
    setNotice(`Copied this option’s ${PART_WORDS[part]} to the ${others.length} other ${others.length === 1 ? 'option' : 'options'}.`);
  };
  const fromAbove = (part: OptionPart) => {
    const source = copy(index - 1, [index], part);
    setNotice(`Copied the ${PART_WORDS[part]} of ${source.name ? `“${source.name}”` : `option ${index}`}.`);
  };
  const parts: OptionPart[] = ['all', 'prices', 'fields', 'stock'];
  return (
    <Group gap="xs">
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button variant="default" size="xs" disabled={index === 0}>
            Same as the option above…
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {parts.map((part) => (
            <Menu.Item key={part} onClick={() => fromAbove(part)}>
              Copy its {PART_WORDS[part]}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Menu position="bottom-start" withinPortal>
        <Menu.Target>
          <Button variant="default" size="xs" disabled={count < 2}>
            Apply to all options of this attribute…
          </Button>
        </Menu.Target>
        <Menu.Dropdown>
          {parts.map((part) => (
            <Menu.Item key={part} onClick={() => toAll(part)}>
              This option’s {PART_WORDS[part]}
            </Menu.Item>
          ))}
        </Menu.Dropdown>
      </Menu>
      <Text size="xs" c="dimmed" aria-live="polite">
        {notice}
      </Text>
    </Group>
  );
}

function OptionEditor({ base, attributeIndex, index, count }: { base: string; attributeIndex: number; index: number; count: number }) {
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
      <CopyTools attributeIndex={attributeIndex} index={index} count={count} />
    </Stack>
  );
}

export const OptionRow = memo(function OptionRow({
  attributeIndex,
  index,
  optionKey,
  count,
  onMove,
  onDuplicate,
  onRemove,
}: OptionRowProps) {
  const base = `attributes.${attributeIndex}.options.${index}`;
  const [open, toggle] = useExpanded(optionKey);
  const { readOnly } = useEditing();
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
        {!readOnly && (
          <RowActions label={label} index={index} count={count} onMove={onMove} onDuplicate={onDuplicate} onRemove={onRemove} />
        )}
      </Group>
      {open && (
        <ReadOnlyFieldset>
          <OptionEditor base={base} attributeIndex={attributeIndex} index={index} count={count} />
        </ReadOnlyFieldset>
      )}
    </Box>
  );
});

function VisuallyLabel({ text }: { text: string }) {
  return <span className={hidden.visuallyHidden}>{text}: </span>;
}
