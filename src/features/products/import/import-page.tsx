/**
 * Import from a spreadsheet: load a file, see every problem before anything is sent, fix in place,
 * create a few at a time, and take away a report. Kept on the server, so a reload, another browser or a
 * colleague opens the same import (see use-import.ts); this browser keeps a copy for when it cannot be reached.
 */
import { Alert, Button, Card, FileButton, Group, NumberInput, SegmentedControl, Stack, Text, Textarea, Title } from '@mantine/core';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { runningSentence } from '@/contract/imports';
import { downloadBlob, downloadText } from '@/lib/download';
import { pathTo } from '@/lib/paths';
import { useNavigate } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import { placeDetails, readerOf, type CheckedProduct } from './check';
import { importColumns } from './columns';
import { ColumnsPanel } from './columns-panel';
import { delimiterFor, reportCsv, templateCsv } from './csv-files';
import { DEFAULT_CONCURRENCY } from './create-queue';
import { ImportGrid, type GridRow } from './import-grid';
import { countStates, reportLines, stateOf } from './outcomes';
import { ProgressPanel } from './progress-panel';
import { SourcePanel } from './source-panel';
import type { ImportSummary } from './server-import';
import { useImport } from './use-import';
import { WARNING_STYLES } from './warning';

type Filter = 'all' | 'problems' | 'unsent';

function LoadPanel({ onLoad, busy }: { onLoad: (source: Blob | string, name: string) => void; busy: boolean }) {
  const [pasted, setPasted] = useState('');
  return (
    <Card withBorder>
      <Stack>
        <Text size="sm">
          An Excel workbook (.xlsx), a CSV or TSV file (comma, semicolon or tab separated, in any common encoding: you see which one was
          read before anything is sent), or rows pasted from Excel or Google Sheets with their header row. One row per option; a product’s
          own columns on its first row.
        </Text>
        <Group>
          <FileButton
            onChange={(file) => file && onLoad(file, file.name)}
            accept=".xlsx,.xls,.csv,.tsv,.txt,text/csv,text/tab-separated-values,application/vnd.openxmlformats-officedocument.spreadsheetml.sheet,application/vnd.ms-excel"
          >
            {(props) => (
              <Button {...props} loading={busy}>
                Choose a file…
              </Button>
            )}
          </FileButton>
        </Group>
        <Textarea
          label="Or paste rows from a spreadsheet"
          autosize
          minRows={3}
          maxRows={8}
          value={pasted}
          onChange={(e) => setPasted(e.currentTarget.value)}
        />
        <Button w="fit-content" variant="light" disabled={pasted.trim() === '' || busy} onClick={() => onLoad(pasted, 'pasted rows')}>
          Read the pasted rows
        </Button>
      </Stack>
    </Card>
  );
}

/** The site's open imports, to open one (when there are several). */
function OpenImports({ imports, onOpen }: { imports: readonly ImportSummary[]; onOpen: (id: string) => void }) {
  const when = new Intl.DateTimeFormat(undefined, { dateStyle: 'medium', timeStyle: 'short' });
  return (
    <Card withBorder>
      <Stack gap="xs">
        <Title order={2} size="h4">
          Imports in progress on this site
        </Title>
        {imports.map((one) => (
          <Group key={one.id} justify="space-between" wrap="wrap" role="group" aria-label={`Import ${one.fileName}`}>
            <Text size="sm">
              <b>{one.fileName}</b>, started by {one.startedBy} on {when.format(one.createdAt)}: {one.counts.created} created,{' '}
              {one.counts.rejected} rejected, {one.counts.unknown} outcome unknown, {one.counts.pending} not sent
              {one.runner ? ` · ${runningSentence(one.runner)}` : ''}
            </Text>
            <Button size="xs" variant="light" onClick={() => onOpen(one.id)}>
              Open
            </Button>
          </Group>
        ))}
      </Stack>
    </Card>
  );
}

export function ImportPage() {
  const { site } = useSite();
  const navigate = useNavigate();
  const state = useImport(site);
  const { settings, file, work, progress } = state;
  // A new dry run of 10,000 rows renders in the background, a few ms at a time, so the page never stalls.
  const check = useDeferredValue(state.check);
  const [filter, setFilter] = useState<Filter>('all');
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  // What the person chose here, else what the import was started with (it survives a reload), else 4.
  const [chosenConcurrency, setConcurrency] = useState<number | null>(null);
  const concurrency = chosenConcurrency ?? work?.concurrency ?? DEFAULT_CONCURRENCY;
  const allColumns = importColumns(settings.fields);
  const statuses = useMemo(() => work?.statuses ?? {}, [work?.statuses]);

  const shown = useMemo(() => {
    const byId = new Map(allColumns.map((c) => [c.id, c]));
    return (work?.mapping ?? []).flatMap((id, index) => {
      const column = id === null ? undefined : byId.get(id);
      return column ? [{ index, column }] : [];
    });
  }, [work?.mapping, allColumns]);

  // Problems by cell: the dry run's, and the platform's details of a rejected product.
  const problems = useMemo(() => {
    const map = new Map<string, string[]>();
    if (!check || !file || !work) return map;
    const add = (key: string, message: string) => map.set(key, [...(map.get(key) ?? []), message]);
    const cell = readerOf(file.rows, work.fixes);
    for (const product of check.result.products) {
      for (const p of product.problems) add(`${p.row}:${p.column ?? ''}`, p.message);
      const status = statuses[String(product.key)];
      if (status?.status === 'rejected') {
        for (const p of placeDetails(product.rows, work.mapping, cell, settings, status.details)) {
          if (p.column !== null) add(`${p.row}:${p.column}`, p.message);
        }
      }
    }
    return map;
  }, [check, file, work, statuses, settings]);

  const visible = useMemo(() => {
    const list: GridRow[] = [];
    for (const product of check?.result.products ?? []) {
      const productState = stateOf(product, statuses);
      if (filter === 'problems' && productState !== 'problems' && productState !== 'rejected' && productState !== 'unknown') continue;
      if (filter === 'unsent' && productState === 'created') continue;
      product.rows.forEach((row, i) => list.push({ row, product, first: i === 0 }));
    }
    return list;
  }, [check, statuses, filter]);

  const counts = check ? countStates(check.result.products, statuses) : null;
  const running =
    progress !== null &&
    (progress.snapshot.state === 'running' || progress.snapshot.state === 'waiting' || progress.snapshot.inFlight.length > 0);

  const load = (source: Blob | string, name: string) => {
    setLoading(true);
    setLoadError(null);
    state
      .load(source, name)
      .catch((error: unknown) => setLoadError(error instanceof Error ? error.message : String(error)))
      .finally(() => setLoading(false));
  };

  const [downloading, setDownloading] = useState(false);
  /** A workbook is written by a library loaded only now; a failure to load it is said, not swallowed. */
  const downloadWorkbook = (write: (files: typeof import('./workbook-files')) => Promise<void>) => {
    setDownloading(true);
    setLoadError(null);
    import('./workbook-files')
      .then(write)
      .catch(() =>
        setLoadError('The Excel writer could not be loaded from the server. Check the connection and try again, or download CSV.'),
      )
      .finally(() => setDownloading(false));
  };
  const reportBase = () => (file?.fileName ?? 'import').replace(/\.(csv|tsv|txt|xlsx|xls)$/i, '');

  const downloadReport = () => {
    if (!file || !check) return;
    const lines = reportLines(check.result.products, statuses);
    const delimiter = file.delimiter === ',' || file.delimiter === ';' ? file.delimiter : delimiterFor(settings.locale);
    downloadText(`${reportBase()}-report.csv`, reportCsv(file.headers, file.rows, lines, delimiter), 'text/csv');
  };
  const downloadReportWorkbook = () => {
    if (!file || !check) return;
    const lines = reportLines(check.result.products, statuses);
    downloadWorkbook(async ({ reportWorkbook }) =>
      downloadBlob(`${reportBase()}-report.xlsx`, await reportWorkbook(file.headers, file.rows, lines)),
    );
  };

  const openEditor = useCallback(
    (product: CheckedProduct) => navigate(pathTo('editImported', { row: String(product.key + 2) })),
    [navigate],
  );
  const { fixCell, decide } = state;
  const onFix = useCallback(
    (row: number, column: number, text: string, product: CheckedProduct) => fixCell(row, column, text, product.key),
    [fixCell],
  );
  const onDecide = useCallback(
    (product: CheckedProduct, decision: 'send-again' | 'skip') => void decide(product.key, decision === 'skip' ? 'skip' : 'send-again'),
    [decide],
  );

  return (
    <Stack gap="md">
      <Group justify="space-between" wrap="wrap">
        <Title order={1}>Import products</Title>
        <Group gap="xs">
          <Button
            variant="default"
            onClick={() => downloadText(`${site.id}-products-template.csv`, templateCsv(settings.fields, settings.locale), 'text/csv')}
          >
            Template (CSV)
          </Button>
          <Button
            variant="default"
            loading={downloading}
            onClick={() =>
              downloadWorkbook(async ({ templateWorkbook }) =>
                downloadBlob(`${site.id}-products-template.xlsx`, await templateWorkbook(settings.fields)),
              )
            }
          >
            Template (Excel)
          </Button>
          {file && (
            <Button variant="subtle" color="red" disabled={running || state.heldBy !== null} onClick={() => void state.startOver()}>
              Start over
            </Button>
          )}
        </Group>
      </Group>
      {state.storageFailed && (
        <Alert color="yellow" styles={WARNING_STYLES} title="This import cannot be kept in this browser">
          The browser refused to store it (storage full or disabled). It goes on while this page is open; download the report before closing
          it.
        </Alert>
      )}
      {state.offline && (
        <Alert color="yellow" styles={WARNING_STYLES} title="The server cannot be reached">
          {work
            ? `This is this browser’s copy of the import${work.syncedAt ? `, as of ${new Date(work.syncedAt).toLocaleTimeString()}` : ''}. Sending waits until the server is back; what you change here is kept and saved then.`
            : 'The imports kept on the server cannot be shown until it is back.'}
        </Alert>
      )}
      {state.heldBy && (
        <Alert color="blue" title="Someone else is running this import">
          {runningSentence(state.heldBy)} Its progress shows here as it happens; you can run it once they pause.
        </Alert>
      )}
      {state.notice && !state.heldBy && (
        <Alert color="yellow" styles={WARNING_STYLES} title="The server said">
          {state.notice}
        </Alert>
      )}
      {loadError && (
        <Alert color="red" title="The file could not be read">
          {loadError}
        </Alert>
      )}
      {state.restoring ? (
        <Text c="dimmed">Looking for an import in progress…</Text>
      ) : !file || !work ? (
        <>
          {state.choices && <OpenImports imports={state.choices} onOpen={(id) => void state.choose(id)} />}
          <LoadPanel onLoad={load} busy={loading} />
        </>
      ) : (
        <>
          <Text size="sm">
            <b>{file.fileName}</b>: {file.rows.length} {file.rows.length === 1 ? 'row' : 'rows'}, {file.headers.length}{' '}
            {file.headers.length === 1 ? 'column' : 'columns'}
            {state.parseMs !== null ? ` · read in ${Math.round(state.parseMs)} ms` : ''}
            {check ? ` · checked in ${Math.round(check.ms)} ms` : ' · checking…'}
          </Text>
          <SourcePanel
            source={file.source}
            canChoose={state.canReread && !loading}
            onChoose={(choice) => {
              setLoading(true);
              setLoadError(null);
              state
                .reread(choice)
                .catch((error: unknown) => setLoadError(error instanceof Error ? error.message : String(error)))
                .finally(() => setLoading(false));
            }}
          />
          {state.parseErrors.length > 0 && (
            <Alert color="yellow" styles={WARNING_STYLES} title="Some lines could not be read cleanly">
              {state.parseErrors
                .slice(0, 5)
                .map((e) => `Line ${e.line}: ${e.message}`)
                .join('; ')}
            </Alert>
          )}
          <ColumnsPanel matches={state.matches} columns={allColumns} onMap={state.mapColumn} />
          {counts && (
            <Group gap="lg" role="status" aria-label="Import summary">
              <Text size="sm">
                <b>{counts.products}</b> {counts.products === 1 ? 'product' : 'products'}
              </Text>
              <Text size="sm" c="blue">
                <b>{counts.ready}</b> ready
              </Text>
              <Text size="sm" c="red">
                <b>{counts.problems}</b> with problems
              </Text>
              {work.started && (
                <>
                  <Text size="sm" c="green">
                    <b>{counts.created}</b> created
                  </Text>
                  <Text size="sm" c="red">
                    <b>{counts.rejected}</b> rejected
                  </Text>
                  <Text size="sm" c="orange">
                    <b>{counts.unknown}</b> outcome unknown
                  </Text>
                  <Text size="sm" c="dimmed">
                    <b>{counts.skipped}</b> skipped
                  </Text>
                </>
              )}
            </Group>
          )}
          {progress && (
            <ProgressPanel progress={progress} onPause={state.pause} onResume={() => void state.resume()} onCancel={state.cancel} />
          )}
          {work.started && !progress && !state.heldBy && counts && counts.ready > 0 && (
            <Alert color="blue" title="This import was interrupted">
              What was answered is kept: {counts.created} created, {counts.rejected} rejected, {counts.unknown} outcome unknown. Products
              answered 200 are never sent again; resume to send the {counts.ready} that are left.
            </Alert>
          )}
          <Group wrap="wrap" align="flex-end">
            <NumberInput
              label="At a time"
              min={1}
              max={16}
              w={100}
              value={concurrency}
              onChange={(v) => setConcurrency(typeof v === 'number' ? v : DEFAULT_CONCURRENCY)}
              disabled={running}
            />
            <Button
              disabled={!counts || counts.ready === 0 || running || state.heldBy !== null || state.offline}
              onClick={() => void state.start(concurrency)}
            >
              {work.started
                ? `Resume: create the ${counts?.ready ?? 0} ready`
                : `Create ${counts?.ready ?? 0} ${counts?.ready === 1 ? 'product' : 'products'}`}
            </Button>
            {work.started && (
              <>
                <Button variant="default" onClick={downloadReport} disabled={!check}>
                  Report (CSV)
                </Button>
                <Button variant="default" onClick={downloadReportWorkbook} disabled={!check} loading={downloading}>
                  Report (Excel)
                </Button>
              </>
            )}
            <SegmentedControl
              aria-label="Rows shown"
              value={filter}
              onChange={(value) => setFilter(value)}
              data={[
                { value: 'all', label: 'All rows' },
                { value: 'problems', label: 'Problems only' },
                { value: 'unsent', label: 'Not created' },
              ]}
            />
          </Group>
          {check && (
            <ImportGrid
              headers={file.headers}
              rows={file.rows}
              columns={shown}
              fixes={work.fixes}
              visible={visible}
              problems={problems}
              statuses={statuses}
              onFix={onFix}
              onOpenEditor={openEditor}
              onDecide={onDecide}
            />
          )}
        </>
      )}
    </Stack>
  );
}
