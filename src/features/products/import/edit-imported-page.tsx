/**
 * A product of a spreadsheet import in the full editor: the same steps and checks as a new product, but
 * the last button brings it back to the import (in place of its rows) instead of creating it.
 */
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useEffect, useMemo, useState } from 'react';
import type { WireProduct } from '@/contract/site-api';
import { pathTo } from '@/lib/paths';
import { Link, useNavigate } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import { ProductEditor } from '../editor/product-editor';
import type { FormProblem } from '../model/codec';
import { settingsForSite } from '../model/codec';
import type { ProductForm } from '../model/product-form';
import { importStore, type SavedImport } from './import-store';
import { formOfImported, replaceProduct } from './round-trip';
import { WARNING_STYLES } from './warning';

const noop = () => undefined;

export function EditImportedPage({ productKey }: { productKey: number }) {
  const { site } = useSite();
  const navigate = useNavigate();
  const settings = useMemo(() => settingsForSite(navigator.language, site), [site]);
  const store = useMemo(() => importStore(), []);
  const [loaded, setLoaded] = useState<{ saved: SavedImport; form: ProductForm } | 'missing' | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let live = true;
    store
      .load()
      .then((saved) => {
        const form = saved ? formOfImported(saved, productKey, settings, site) : null;
        if (live) setLoaded(saved && form ? { saved, form } : 'missing');
      })
      .catch(() => live && setLoaded('missing'));
    return () => {
      live = false;
    };
  }, [store, productKey, settings, site]);

  const back = (
    <Button component={Link} to={pathTo('importProducts')} variant="default" w="fit-content">
      Back to the import without changes
    </Button>
  );

  if (loaded === null) return <Text c="dimmed">Opening the product of the import…</Text>;
  if (loaded === 'missing') {
    return (
      <Stack>
        <Alert color="yellow" styles={WARNING_STYLES} title="This product is no longer in the import">
          The import was started over, or its rows changed.
        </Alert>
        {back}
      </Stack>
    );
  }

  const submit = async (body: WireProduct): Promise<FormProblem[]> => {
    setSaving(true);
    const next = replaceProduct(loaded.saved, productKey, body, settings, settings.decimals);
    if (next) {
      await store.saveFile(next.file);
      await store.saveWork(next.work);
    }
    setSaving(false);
    navigate(pathTo('importProducts'));
    return [];
  };

  return (
    <Stack gap="md">
      <Title order={1}>Edit a product of the import</Title>
      <Group>
        <Text size="sm">
          Row {productKey + 2} of <b>{loaded.saved.file.fileName}</b>. Nothing is created from here: the product goes back to the
          import in place of its rows.
        </Text>
        {back}
      </Group>
      <ProductEditor
        defaultValues={loaded.form}
        settings={settings}
        initialStep={0}
        submitting={saving}
        onSubmit={submit}
        onValuesChange={noop}
        onDirtyChange={noop}
        targetName={site.name}
        submitLabel="Bring back to the import"
      />
    </Stack>
  );
}
