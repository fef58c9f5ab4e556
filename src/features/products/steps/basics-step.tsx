import { SimpleGrid, Stack } from '@mantine/core';
import { useFormContext } from 'react-hook-form';
import { CreatedSlugWarning } from '../editor/created-slugs';
import { RegistryField, TextField } from '../editor/form-fields';
import type { ProductForm } from '../model/product-form';
import { useProductSettings } from '../editor/settings';
import { fieldByPath, type FieldDef, type SiteFields } from '../model/registry';
import { suggestSlug } from '../model/slug';

const field = (fields: SiteFields, path: string): FieldDef => {
  const found = fieldByPath(fields, 'product', path);
  if (!found) throw new Error(`no product field at ${path}`);
  return found;
};

export function BasicsStep() {
  const { getValues, setValue } = useFormContext<ProductForm>();
  const { fields } = useProductSettings();
  const onNameEdit = (name: string) => {
    if (!getValues('slugEdited')) setValue('slug', suggestSlug(name), { shouldDirty: true });
  };
  const onSlugEdit = (slug: string) => {
    // An emptied slug goes back to following the name.
    setValue('slugEdited', slug.trim() !== '');
  };
  const name = field(fields, 'name');
  const slug = field(fields, 'slug');
  const dates = fields.product.filter((f) => f.step === 'basics' && f.kind === 'datetime');
  const others = fields.product.filter((f) => f.step === 'basics' && f !== name && f !== slug && f.kind !== 'datetime');
  return (
    <Stack gap="md" maw={720}>
      <TextField path="name" label={name.label} withAsterisk autoComplete="off" onEdit={onNameEdit} data-autofocus />
      <Stack gap={4}>
        <TextField path="slug" label={slug.label} description={slug.hint} autoComplete="off" spellCheck={false} onEdit={onSlugEdit} />
        <CreatedSlugWarning />
      </Stack>
      {others.map((f) => (
        <RegistryField key={f.wire} def={f} maw={f.kind === 'integer' ? 360 : undefined} />
      ))}
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        {dates.map((f) => (
          <RegistryField key={f.wire} def={f} />
        ))}
      </SimpleGrid>
    </Stack>
  );
}
