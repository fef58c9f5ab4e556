/**
 * Import from a spreadsheet: load a file, see every problem before anything is sent, fix in place,
 * create a few at a time, and take away a report. Kept on the server, so a reload, another browser or a
 * colleague opens the same import (see import-session.ts); this browser keeps a copy for when it cannot be
 * reached. The page lays out its panels; the hook (use-import.ts) holds the import.
 */
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { downloadBlob, downloadText } from '@/lib/download';
import { pathTo } from '@/lib/paths';
import { useNavigate } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import type { CheckedProduct } from './check';
import { importColumns } from './columns';
import { ColumnsPanel } from './columns-panel';
import { delimiterFor, reportCsv, templateCsv } from './csv-files';
import { DEFAULT_CONCURRENCY } from './create-queue';
import { cellProblems, visibleRows, type RowFilter } from './grid-rows';
import { approvalStart } from './approval-panel';
import { ImportAlerts } from './import-alerts';
import { ImportGrid } from './import-grid';
import { ImportSummary } from './import-summary';
import { LoadPanel } from './load-panel';
import { OpenImports } from './open-imports';
import { countStates, reportLines } from './outcomes';
import { ProgressPanel } from './progress-panel';
import { RunControls } from './run-controls';
import { SourcePanel } from './source-panel';
import { useImport } from './use-import';
import { WARNING_STYLES } from './warning';

export function ImportPage() {
  const { site } = useSite();
  const navigate = useNavigate();
  const state = useImport(site);
  const { settings, file, work, progress } = state;
  // A new dry run of 10,000 rows renders in the background, a few ms at a time, so the page never stalls.
  const check = useDeferredValue(state.check);
  const [filter, setFilter] = useState<RowFilter>('all');
  const [loading, setLoading] = useState(false);
  const [loadError, setLoadError] = useState<string | null>(null);
  // What the person chose here, else what the import was started with (it survives a reload), else 4.
  const [chosenConcurrency, setConcurrency] = useState<number | null>(null);
  const concurrency = chosenConcurrency ?? work?.concurrency ?? DEFAULT_CONCURRENCY;
  const allColumns = useMemo(() => importColumns(settings.fields), [settings.fields]);
  const statuses = useMemo(() => work?.statuses ?? {}, [work?.statuses]);

  const shown = useMemo(() => {
    const byId = new Map(allColumns.map((c) => [c.id, c]));
    return (work?.mapping ?? []).flatMap((id, index) => {
      const column = id === null ? undefined : byId.get(id);
      return column ? [{ index, column }] : [];
    });
  }, [work?.mapping, allColumns]);
  const problems = useMemo(
    () => (check && file && work ? cellProblems(check.result, file, work, settings) : new Map<string, string[]>()),
    [check, file, work, settings],
  );
  const visible = useMemo(() => visibleRows(check?.result ?? null, statuses, filter), [check, statuses, filter]);

  const counts = check ? countStates(check.result.products, statuses) : null;
  const approval = approvalStart({
    need: state.need,
    approval: state.approval.approval,
    ready: counts?.ready ?? 0,
    siteName: site.name,
    ask: () => void state.approval.ask(),
    asking: state.approval.asking,
    askError: state.approval.askError,
  });
  const running =
    progress !== null &&
    (progress.snapshot.state === 'running' || progress.snapshot.state === 'waiting' || progress.snapshot.inFlight.length > 0);

  /** Reads a file, or the same one again in another encoding or sheet; a failure is said, not swallowed. */
  const reading = (read: Promise<void>) => {
    setLoading(true);
    setLoadError(null);
    read.catch((error: unknown) => setLoadError(error instanceof Error ? error.message : String(error))).finally(() => setLoading(false));
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
  const reportBase = (file?.fileName ?? 'import').replace(/\.(csv|tsv|txt|xlsx|xls)$/i, '');
  /** The report of what was answered, row by row, once the dry run has finished (built when asked for). */
  const downloadReport =
    file && check
      ? (kind: 'csv' | 'xlsx') => {
          const lines = reportLines(check.result.products, statuses);
          if (kind === 'xlsx') {
            return downloadWorkbook(async ({ reportWorkbook }) =>
              downloadBlob(`${reportBase}-report.xlsx`, await reportWorkbook(file.headers, file.rows, lines)),
            );
          }
          const delimiter = file.delimiter === ',' || file.delimiter === ';' ? file.delimiter : delimiterFor(settings.locale);
          downloadText(`${reportBase}-report.csv`, reportCsv(file.headers, file.rows, lines, delimiter), 'text/csv');
        }
      : null;

  const openEditor = useCallback(
    (product: CheckedProduct) => navigate(pathTo('editImported', { row: String(product.key + 2) })),
    [navigate],
  );
  const { fixCell, decide } = state;
  const checkAgain = state.catalogue.again;
  const onFix = useCallback(
    (row: number, column: number, text: string, product: CheckedProduct) => fixCell(row, column, text, product.key),
    [fixCell],
  );
  const onDecide = useCallback(
    (product: CheckedProduct, decision: 'send-again' | 'skip') => {
      const conflict = statuses[String(product.key)]?.status === 'conflict';
      void decide(product.key, decision === 'skip' ? 'skip' : 'send-again').then(() => {
        // Held back because the product changed since the dry run: the site's products are read again, so
        // it is checked (and its diff shown) against the product as it is now before anyone sends it.
        if (conflict) checkAgain();
      });
    },
    [decide, statuses, checkAgain],
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
      <ImportAlerts
        storageFailed={state.storageFailed}
        offline={state.offline}
        work={work}
        heldBy={state.heldBy}
        notice={state.notice}
        loadError={loadError}
      />
      {state.restoring ? (
        <Text c="dimmed">Looking for an import in progress…</Text>
      ) : !file || !work ? (
        <>
          {state.choices && <OpenImports imports={state.choices} onOpen={(id) => void state.choose(id)} />}
          <LoadPanel onLoad={(source, name) => reading(state.load(source, name))} busy={loading} />
        </>
      ) : (
        <>
          <Text size="sm">
            <b>{file.fileName}</b>: {file.rows.length} {file.rows.length === 1 ? 'row' : 'rows'}, {file.headers.length}{' '}
            {file.headers.length === 1 ? 'column' : 'columns'}
            {state.parseMs !== null ? ` · read in ${Math.round(state.parseMs)} ms` : ''}
            {check ? ` · checked in ${Math.round(check.ms)} ms` : ' · checking…'}
          </Text>
          <SourcePanel source={file.source} canChoose={state.canReread && !loading} onChoose={(choice) => reading(state.reread(choice))} />
          {state.parseErrors.length > 0 && (
            <Alert color="yellow" styles={WARNING_STYLES} title="Some lines could not be read cleanly">
              {state.parseErrors
                .slice(0, 5)
                .map((e) => `Line ${e.line}: ${e.message}`)
                .join('; ')}
            </Alert>
          )}
          <ColumnsPanel matches={state.matches} columns={allColumns} onMap={state.mapColumn} />
          {state.catalogue.error ? (
            <Alert color="yellow" styles={WARNING_STYLES} title="The site’s products could not be read">
              {state.catalogue.error} Every product of the file is checked as new; one whose slug is on the site will be refused by the
              platform.{' '}
              <Button size="compact-xs" variant="light" onClick={state.catalogue.again}>
                Read them again
              </Button>
            </Alert>
          ) : (
            <Group gap="xs">
              <Text size="sm" c="dimmed">
                {state.catalogue.reading
                  ? 'Reading the site’s products to find the file’s updates…'
                  : state.catalogue.count !== null
                    ? `Checked against the site’s ${state.catalogue.count} ${state.catalogue.count === 1 ? 'product' : 'products'}: a product whose slug is on the site is an update.`
                    : ''}
              </Text>
              {!state.catalogue.reading && state.catalogue.count !== null && !running && (
                <Button size="compact-xs" variant="subtle" onClick={state.catalogue.again}>
                  Check against the site again
                </Button>
              )}
            </Group>
          )}
          {counts && <ImportSummary counts={counts} started={work.started} />}
          {progress && (
            <ProgressPanel progress={progress} onPause={state.pause} onResume={() => void state.resume()} onCancel={state.cancel} />
          )}
          {work.started && !progress && !state.heldBy && counts && counts.ready > 0 && (
            <Alert color="blue" title="This import was interrupted">
              What was answered is kept: {counts.created} created, {counts.updated} updated, {counts.rejected} rejected, {counts.unknown}{' '}
              outcome unknown. Products answered 200 are never sent again; resume to send the {counts.ready} that are left.
            </Alert>
          )}
          {approval.alert}
          <RunControls
            concurrency={concurrency}
            onConcurrency={setConcurrency}
            running={running}
            started={work.started}
            ready={counts?.ready ?? 0}
            updates={counts?.updates ?? 0}
            canStart={!!counts && counts.ready > 0 && !running && state.heldBy === null && !state.offline && approval.ready}
            onStart={approval.instead ?? (() => void state.start(concurrency))}
            startLabel={approval.label}
            onReport={downloadReport && (() => downloadReport('csv'))}
            onReportWorkbook={downloadReport && (() => downloadReport('xlsx'))}
            downloading={downloading}
            filter={filter}
            onFilter={setFilter}
          />
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
