import { SimpleGrid, Stack, TagsInput, Title } from '@mantine/core';
import { Controller, useFormContext } from 'react-hook-form';
import { PRODUCT_FIELD_SLOTS } from '@/contract/site-api';
import { useMarkChanged } from '../editor/change-signal';
import { TextAreaField, TextField } from '../editor/form-fields';
import { productFieldLabel, productFieldMultiline } from '../editor/labels';
import type { ProductForm } from '../model/product-form';

function IdTagsField({ path, label, description }: { path: 'categories' | 'secureZones'; label: string; description: string }) {
  const { control } = useFormContext<ProductForm>();
  const markChanged = useMarkChanged();
  return (
    <Controller
      control={control}
      name={path}
      render={({ field, fieldState }) => (
        <TagsInput
          label={label}
          description={description}
          value={field.value}
          onChange={(value) => {
            field.onChange(value.map((v) => v.trim()).filter(Boolean));
            // Removing a tag with its button fires no input event.
            markChanged();
          }}
          onBlur={field.onBlur}
          ref={field.ref}
          name={field.name}
          splitChars={[',', ' ', ';']}
          acceptValueOnBlur
          clearable
          error={fieldState.error?.message}
          placeholder="Type an identifier and press Enter"
        />
      )}
    />
  );
}

export function PlacementStep() {
  return (
    <Stack gap="lg" maw={820}>
      <Stack gap="sm">
        <Title order={3} size="h4">
          Catalogue placement
        </Title>
        <IdTagsField
          path="categories"
          label="Categories"
          description="Identifiers of the categories the product appears in, e.g. 158198. Press Enter or a comma after each."
        />
        <IdTagsField
          path="secureZones"
          label="Secure zones"
          description="Identifiers of the secure zones that may see the product. Leave empty for everyone."
        />
      </Stack>
      <Stack gap="sm">
        <Title order={3} size="h4">
          Product fields
        </Title>
        <SimpleGrid cols={{ base: 1, md: 2 }}>
          {PRODUCT_FIELD_SLOTS.map((slot, i) =>
            productFieldMultiline(i) ? (
              <TextAreaField key={slot} path={`fields.${i}`} label={productFieldLabel(i)} />
            ) : (
              <TextField key={slot} path={`fields.${i}`} label={productFieldLabel(i)} autoComplete="off" />
            ),
          )}
        </SimpleGrid>
      </Stack>
    </Stack>
  );
}
