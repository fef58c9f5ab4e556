/**
 * Import a product from a JSON file in the wire format; export the current product as one.
 */
import { Button, FileButton, Group } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useFormContext } from 'react-hook-form';
import { checkProductShape } from '@/contract/rules';
import { downloadJson } from '@/lib/download';
import { decodeProduct, encodeProduct } from '../model/codec';
import type { ProductForm } from '../model/product-form';
import { useProductSettings } from './settings';

export function ImportExport({ onImport }: { onImport: (values: ProductForm) => void }) {
  const { getValues } = useFormContext<ProductForm>();
  const settings = useProductSettings();

  const importFile = async (file: File | null) => {
    if (!file) return;
    let json: unknown;
    try {
      json = JSON.parse(await file.text());
    } catch {
      notifications.show({ color: 'red', title: 'Import failed', message: `${file.name} is not a JSON file.` });
      return;
    }
    const check = checkProductShape(json);
    if (!check.ok) {
      const first = check.details
        .slice(0, 3)
        .map((d) => `${d.field} ${d.message}`)
        .join('; ');
      notifications.show({
        color: 'red',
        title: 'Import failed',
        message: `${file.name} is not a product in the Site API v2 format: ${first}.`,
        autoClose: false,
      });
      return;
    }
    onImport(decodeProduct(check.product, settings.decimals));
    notifications.show({
      color: 'teal',
      title: 'Imported',
      message: `${file.name} is in the editor. Nothing is sent until you press Create.`,
    });
  };

  const exportFile = () => {
    const body = encodeProduct(getValues(), settings).body;
    downloadJson(`${body.slug || 'product'}.json`, body);
  };

  return (
    <Group gap="xs">
      <FileButton onChange={(file) => void importFile(file)} accept="application/json,.json">
        {(props) => (
          <Button variant="default" size="xs" {...props}>
            Import JSON…
          </Button>
        )}
      </FileButton>
      <Button variant="default" size="xs" onClick={exportFile}>
        Export JSON
      </Button>
    </Group>
  );
}
