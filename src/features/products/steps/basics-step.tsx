import { SimpleGrid, Stack } from '@mantine/core';
import { useFormContext } from 'react-hook-form';
import { DateTimeField, SwitchField, TextField } from '../editor/form-fields';
import type { ProductForm } from '../model/product-form';
import { suggestSlug } from '../model/slug';

export function BasicsStep() {
  const { getValues, setValue } = useFormContext<ProductForm>();
  const onNameEdit = (name: string) => {
    if (!getValues('slugEdited')) setValue('slug', suggestSlug(name), { shouldDirty: true });
  };
  const onSlugEdit = (slug: string) => {
    // An emptied slug goes back to following the name.
    setValue('slugEdited', slug.trim() !== '');
  };
  return (
    <Stack gap="md" maw={720}>
      <TextField path="name" label="Name" withAsterisk autoComplete="off" onEdit={onNameEdit} data-autofocus />
      <TextField
        path="slug"
        label="Slug"
        description="The product's address on the site: lower-case words joined by hyphens. Suggested from the name until you edit it."
        autoComplete="off"
        spellCheck={false}
        onEdit={onSlugEdit}
      />
      <SwitchField path="enabled" label="Enabled" description="Visible on the site (within the release and expiry dates)." />
      <TextField
        path="weighting"
        label="Weighting"
        description="Sort position: a whole number. Leave empty for the site's default."
        inputMode="numeric"
        autoComplete="off"
        maw={240}
      />
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <DateTimeField path="releaseAt" label="Release date" description="Shown from this time (your time zone)." />
        <DateTimeField path="expiryAt" label="Expiry date" description="Hidden after this time; must be after release." />
      </SimpleGrid>
    </Stack>
  );
}
