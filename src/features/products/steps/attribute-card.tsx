/**
 * One attribute: a one-line summary, and when expanded its name, switch and its options.
 */
import { Badge, Button, Card, Group, Stack, Text, UnstyledButton } from '@mantine/core';
import { memo, useCallback, useContext } from 'react';
import { get, useFieldArray, useFormContext, useFormState, useWatch, type FieldPath } from 'react-hook-form';
import { optionLike } from '../editor/bulk';
import { cloneOption } from '../editor/clone';
import { useMarkChangedOn } from '../editor/change-signal';
import { ReadOnlyFieldset, useEditing } from '../editor/editing';
import { ExpansionContext, useExpanded } from '../editor/expansion';
import { RegistryField, TextField } from '../editor/form-fields';
import { RowActions } from '../editor/row-actions';
import { offerUndo } from '../editor/undo-remove';
import { emptyOption, type ProductForm } from '../model/product-form';
import { useProductSettings } from '../editor/settings';
import { OptionRow } from './option-row';
import hidden from '@/lib/visually-hidden.module.css';
import classes from './rows.module.css';

export interface AttributeCardProps {
  index: number;
  attributeKey: string;
  count: number;
  onMove: (from: number, to: number) => void;
  onDuplicate: (index: number) => void;
  onRemove: (index: number) => void;
}

function AttributeSummary({ index }: { index: number }) {
  const { control } = useFormContext<ProductForm>();
  const base = `attributes.${index}` as const;
  const [name, enabled, options] = useWatch({
    control,
    name: [`${base}.name`, `${base}.enabled`, `${base}.options`],
  });
  const { errors } = useFormState({ control, name: base });
  const hasErrors = Boolean(get(errors, base));
  const names = options.map((o) => o.name).filter(Boolean);
  return (
    <Group gap="xs" wrap="nowrap" className={classes.summaryText}>
      <Text fw={600} truncate>
        {name || <em>Attribute {index + 1} (no name yet)</em>}
      </Text>
      <Badge size="sm" variant="light" color="gray">
        {options.length} {options.length === 1 ? 'option' : 'options'}
      </Badge>
      {!enabled && (
        <Badge size="sm" variant="outline" color="gray">
          Hidden
        </Badge>
      )}
      {hasErrors && (
        <Badge size="sm" color="red">
          Has errors
        </Badge>
      )}
      <Text size="xs" c="dimmed" truncate visibleFrom="sm">
        {names.slice(0, 6).join(', ')}
        {names.length > 6 ? ', …' : ''}
      </Text>
    </Group>
  );
}

function OptionsList({ attributeIndex }: { attributeIndex: number }) {
  const { control, getValues } = useFormContext<ProductForm>();
  const expansion = useContext(ExpansionContext);
  const { fields, append, move, insert, remove } = useFieldArray({ control, name: `attributes.${attributeIndex}.options` });
  const { readOnly } = useEditing();
  useMarkChangedOn(fields);
  const onDuplicate = useCallback(
    (i: number) => {
      const copy = cloneOption(getValues(`attributes.${attributeIndex}.options.${i}`));
      insert(i + 1, copy, { shouldFocus: false });
    },
    [attributeIndex, getValues, insert],
  );
  const onRemove = useCallback(
    (i: number) => {
      const removed = getValues(`attributes.${attributeIndex}.options.${i}`);
      remove(i);
      offerUndo(
        removed.name ? `option “${removed.name}”` : `option ${i + 1}`,
        () => insert(i, removed, { shouldFocus: false }),
        removed.id !== '' ? 'option' : undefined,
      );
    },
    [attributeIndex, getValues, insert, remove],
  );
  /** A new option, empty or (`like`) starting from the last option's prices, fields and stock. */
  const add = (like: boolean) => {
    const options = getValues(`attributes.${attributeIndex}.options`);
    const last = options.at(-1);
    const option = like && last ? optionLike(last, emptyOption()) : emptyOption();
    expansion.set(option.key, true);
    append(option, { focusName: `attributes.${attributeIndex}.options.${fields.length}.name` });
  };
  return (
    <Stack gap={0}>
      {fields.length === 0 && (
        <Text size="sm" c="dimmed" py="xs">
          No options yet. An attribute offers a choice, such as a size or a colour: add its options here.
        </Text>
      )}
      {fields.map((field, i) => (
        <OptionRow
          key={field.id}
          attributeIndex={attributeIndex}
          index={i}
          optionKey={(field as { key: string }).key}
          count={fields.length}
          onMove={move}
          onDuplicate={onDuplicate}
          onRemove={onRemove}
        />
      ))}
      {!readOnly && (
        <Group mt="xs" gap="xs">
          <Button variant="light" size="xs" onClick={() => add(false)}>
            Add option
          </Button>
          {fields.length > 0 && (
            <Button variant="subtle" size="xs" onClick={() => add(true)}>
              Add option like the last
            </Button>
          )}
        </Group>
      )}
    </Stack>
  );
}

export const AttributeCard = memo(function AttributeCard({
  index,
  attributeKey,
  count,
  onMove,
  onDuplicate,
  onRemove,
}: AttributeCardProps) {
  const [open, toggle] = useExpanded(attributeKey);
  const { fields } = useProductSettings();
  const { readOnly } = useEditing();
  const label = `attribute ${index + 1}`;
  const base = `attributes.${index}`;
  return (
    <Card withBorder padding="xs" radius="md" component="section" aria-label={`Attribute ${index + 1}`}>
      <Group gap="xs" wrap="nowrap" justify="space-between">
        <UnstyledButton onClick={toggle} aria-expanded={open} className={classes.summary}>
          <Text span aria-hidden="true" className={classes.chevron}>
            {open ? '▾' : '▸'}
          </Text>
          <span className={hidden.visuallyHidden}>{`${open ? 'Collapse' : 'Expand'} ${label}`}: </span>
          {/* The live summary only while collapsed: open, the fields themselves show it, and typing in
              them then wakes no watcher of the whole option list. */}
          {open ? <Text fw={600}>Attribute {index + 1}</Text> : <AttributeSummary index={index} />}
        </UnstyledButton>
        {!readOnly && (
          <RowActions label={label} index={index} count={count} onMove={onMove} onDuplicate={onDuplicate} onRemove={onRemove} />
        )}
      </Group>
      {open && (
        <Stack gap="sm" p="sm" pt="xs">
          <ReadOnlyFieldset>
            <Group align="flex-end" gap="md">
              {fields.attribute.map((def) =>
                def.path === 'name' ? (
                  <TextField
                    key={def.wire}
                    path={`${base}.name` as FieldPath<ProductForm>}
                    label={def.label}
                    withAsterisk
                    autoComplete="off"
                    placeholder="e.g. Size"
                    style={{ flex: 1 }}
                  />
                ) : (
                  <RegistryField key={def.wire} def={def} base={`${base}.`} />
                ),
              )}
            </Group>
          </ReadOnlyFieldset>
          <OptionsList attributeIndex={index} />
        </Stack>
      )}
    </Card>
  );
});
