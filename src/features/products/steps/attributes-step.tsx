import { Button, Group, Stack, Text } from '@mantine/core';
import { useCallback, useContext } from 'react';
import { useFieldArray, useFormContext } from 'react-hook-form';
import { cloneAttribute } from '../editor/clone';
import { useEditing } from '../editor/editing';
import { useMarkChangedOn } from '../editor/change-signal';
import { ExpansionContext } from '../editor/expansion';
import { offerUndo } from '../editor/undo-remove';
import { emptyAttribute, type ProductForm } from '../model/product-form';
import { AttributeCard } from './attribute-card';

export function AttributesStep() {
  const { control, getValues } = useFormContext<ProductForm>();
  const expansion = useContext(ExpansionContext);
  const { fields, append, move, insert, remove } = useFieldArray({ control, name: 'attributes' });
  const { existing, readOnly } = useEditing();
  useMarkChangedOn(fields);
  const onDuplicate = useCallback(
    (i: number) => insert(i + 1, cloneAttribute(getValues(`attributes.${i}`)), { shouldFocus: false }),
    [getValues, insert],
  );
  const onRemove = useCallback(
    (i: number) => {
      const removed = getValues(`attributes.${i}`);
      remove(i);
      offerUndo(
        removed.name ? `attribute “${removed.name}”` : `attribute ${i + 1}`,
        () => insert(i, removed, { shouldFocus: false }),
        removed.id !== '' ? 'attribute' : undefined,
      );
    },
    [getValues, insert, remove],
  );
  const add = () => {
    const attribute = emptyAttribute();
    expansion.openMany([attribute.key, ...attribute.options.map((o) => o.key)]);
    // The new attribute opens with the cursor in its name.
    append(attribute, { focusName: `attributes.${fields.length}.name` });
  };
  const collapseAll = () => {
    for (const attribute of getValues('attributes')) {
      expansion.set(attribute.key, false);
      for (const option of attribute.options) expansion.set(option.key, false);
    }
  };
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed" maw={720}>
        Attributes let a customer choose, for example a size or a colour. Each option can add to the product's price and has its own stock.
      </Text>
      {existing && !readOnly && (
        <Text size="sm" maw={720}>
          The platform cannot delete an attribute or an option: removing one here switches it off when you save (customers no longer see
          it), and Review lists it as disabled.
        </Text>
      )}
      {fields.length > 0 && (
        <Group justify="space-between">
          <Text size="sm" fw={500}>
            {fields.length} {fields.length === 1 ? 'attribute' : 'attributes'}
          </Text>
          <Button variant="subtle" size="xs" onClick={collapseAll}>
            Collapse all
          </Button>
        </Group>
      )}
      {fields.map((field, i) => (
        <AttributeCard
          key={field.id}
          index={i}
          attributeKey={field.key}
          count={fields.length}
          onMove={move}
          onDuplicate={onDuplicate}
          onRemove={onRemove}
        />
      ))}
      {!readOnly && (
        <Group>
          <Button variant="light" onClick={add}>
            Add attribute
          </Button>
        </Group>
      )}
    </Stack>
  );
}
