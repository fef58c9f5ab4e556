/**
 * A product of a spreadsheet import in the full editor, at its own address: the same steps, checks,
 * draft and leave guard as a new product, but the last button brings it back to the import (in place of
 * its rows, as form values: no wire body in between) instead of creating it.
 */
import '@mantine/notifications/styles.css';
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { Notifications } from '@mantine/notifications';
import { useCallback, useEffect, useMemo, useState } from 'react';
import { pathTo } from '@/lib/paths';
import { Link, useNavigate, usePathParams } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import { DraftRefusedAlert, LeaveDialog, useEditorWork } from '../editor-work';
import { ProductEditor } from '../editor/product-editor';
import { settingsForSite } from '../model/codec';
import type { ProductForm } from '../model/product-form';
import { baseOf, deleteImportDraft, findImportDraft, saveImportDraft } from './edit-draft';
import { importStore, type SavedImport } from './import-store';
import { formOfImported, productRowsOf, replaceProduct } from './round-trip';
import { replaceFile, saidOf, sharedWork, unreachable } from './server-import';
import { WARNING_STYLES } from './warning';

/** The import numbers rows as a spreadsheet does: the header is row 1, so the first product is row 2. */
const FIRST_ROW = 2;

function BackToImport() {
  return (
    <Button component={Link} to={pathTo('importProducts')} variant="default" w="fit-content">
      Back to the import without changes
    </Button>
  );
}

function Missing() {
  return (
    <Stack>
      <Alert color="yellow" styles={WARNING_STYLES} title="This product is no longer in the import">
        The import was started over, or its rows changed.
      </Alert>
      <BackToImport />
    </Stack>
  );
}

export function EditImportedPage() {
  const row = Number(usePathParams('editImported')?.row);
  if (!Number.isInteger(row) || row < FIRST_ROW) return <Missing />;
  return <EditImported key={row} productKey={row - FIRST_ROW} />;
}

interface Loaded {
  saved: SavedImport;
  /** The product as its rows read, and that reading as its draft's key. */
  imported: ProductForm;
  base: string;
  /** What the editor opens with: the rows, or the draft kept of them. */
  start: { values: ProductForm; step: number; restored: boolean };
}

function EditImported({ productKey }: { productKey: number }) {
  const { site } = useSite();
  const navigate = useNavigate();
  const settings = useMemo(() => settingsForSite(navigator.language, site), [site]);
  const store = useMemo(() => importStore(), []);
  const [loaded, setLoaded] = useState<Loaded | 'missing' | null>(null);
  // Opening the rows again (after discarding a draft) is a new editor.
  const [opening, setOpening] = useState(0);
  const [saving, setSaving] = useState(false);
  const [saveFailed, setSaveFailed] = useState(false);
  const [serverRefusal, setServerRefusal] = useState<string | null>(null);

  useEffect(() => {
    let live = true;
    store
      .load()
      .then((saved) => {
        const imported = saved ? formOfImported(saved, productKey, settings, site) : null;
        if (!live) return;
        if (!saved || !imported) return setLoaded('missing');
        const base = baseOf(imported);
        const draft = findImportDraft(productKey, base);
        const start = draft ? { values: draft.values, step: draft.step, restored: true } : { values: imported, step: 0, restored: false };
        setLoaded({ saved, imported, base, start });
      })
      .catch(() => live && setLoaded('missing'));
    return () => {
      live = false;
    };
  }, [store, productKey, settings, site]);

  const base = loaded !== null && loaded !== 'missing' ? loaded.base : null;
  const work = useEditorWork(
    useCallback(
      (values: ProductForm, step: number) => base !== null && saveImportDraft(productKey, base, values, step),
      [productKey, base],
    ),
  );

  if (loaded === null) return <Text c="dimmed">Opening the product of the import…</Text>;
  if (loaded === 'missing') return <Missing />;

  const submit = async (values: ProductForm) => {
    setSaving(true);
    setSaveFailed(false);
    setServerRefusal(null);
    try {
      const next = replaceProduct(loaded.saved, productKey, values, settings);
      if (next) {
        let work = next.work;
        const { serverId, version } = loaded.saved.work;
        if (serverId !== undefined && version !== undefined) {
          // The server's import first (everyone's): its rows and the statuses of the rows after them move together.
          const rows = productRowsOf(loaded.saved, productKey) ?? [productKey];
          const startRow = rows[0] ?? productKey;
          const moved = { start: startRow, end: startRow + rows.length, delta: next.file.rows.length - loaded.saved.file.rows.length };
          try {
            work = { ...work, version: await replaceFile(serverId, version, next.file, sharedWork(next.work), moved) };
          } catch (error) {
            setServerRefusal(
              unreachable(error)
                ? 'The server cannot be reached, so the import was not changed. Try again once it is back.'
                : (saidOf(error) ?? 'The server refused the change.'),
            );
            return;
          }
        }
        await store.saveFile(next.file);
        await store.saveWork(work);
      }
      work.finish();
      deleteImportDraft(productKey, loaded.base);
      navigate(pathTo('importProducts'));
    } catch {
      setSaveFailed(true);
    } finally {
      setSaving(false);
    }
  };

  const discardDraft = () => {
    work.discardPending();
    deleteImportDraft(productKey, loaded.base);
    setLoaded({ ...loaded, start: { values: loaded.imported, step: 0, restored: false } });
    setOpening((n) => n + 1);
  };

  const banner = serverRefusal ? (
    <Alert color="red" title="The product could not be brought back">
      {serverRefusal} Your changes are still here.
    </Alert>
  ) : saveFailed ? (
    <Alert color="red" title="The product could not be brought back">
      This browser refused to store the import (storage full or disabled). Your changes are still here; try again, or export the product as
      JSON to keep a copy.
    </Alert>
  ) : work.storageFailed ? (
    <DraftRefusedAlert />
  ) : null;

  return (
    <Stack gap="md">
      {/* The editor notifies (imports, undo), so the notifications code loads with it. */}
      <Notifications position="top-right" />
      <Title order={1}>Edit a product of the import</Title>
      <Group>
        <Text size="sm">
          Row {productKey + FIRST_ROW} of <b>{loaded.saved.file.fileName}</b>. Nothing is created from here: the product goes back to the
          import in place of its rows.
        </Text>
        <BackToImport />
      </Group>
      {loaded.start.restored && (
        <Alert color="blue" title="Your earlier changes to this product are restored">
          <Group justify="space-between">
            <Text size="sm">They were kept in this browser as a draft; the import does not have them yet.</Text>
            <Button variant="default" size="xs" onClick={discardDraft}>
              Discard them and open the rows
            </Button>
          </Group>
        </Alert>
      )}
      <ProductEditor
        key={opening}
        defaultValues={loaded.start.values}
        settings={settings}
        initialStep={loaded.start.step}
        submitting={saving}
        onSubmit={submit}
        onValuesChange={work.onValuesChange}
        onDirtyChange={work.onDirtyChange}
        banner={banner}
        targetName={site.name}
        submitLabel="Bring back to the import"
      />
      <LeaveDialog blocker={work.blocker} unsaved="The product has not been brought back to the import yet." />
    </Stack>
  );
}
