/** How many at a time, the button that starts or resumes the run, the reports, and which rows the grid shows. */
import { Button, Group, NumberInput, SegmentedControl } from '@mantine/core';
import { MAX_CONCURRENCY } from '@/contract/imports';
import { DEFAULT_CONCURRENCY } from './create-queue';
import type { RowFilter } from './grid-rows';

export function RunControls(props: {
  concurrency: number;
  onConcurrency: (value: number) => void;
  running: boolean;
  started: boolean;
  /** Products ready to send. */
  ready: number;
  /** Of those, updates of products of the site (the rest are new). */
  updates?: number;
  canStart: boolean;
  onStart: () => void;
  /** The start button's words where the site's rule has its say ("Ask for approval of 12 products"). */
  startLabel?: string;
  /** Null until the dry run has finished. */
  onReport: (() => void) | null;
  onReportWorkbook: (() => void) | null;
  downloading: boolean;
  filter: RowFilter;
  onFilter: (filter: RowFilter) => void;
}) {
  const { ready, started } = props;
  const updates = props.updates ?? 0;
  const what =
    updates === 0
      ? null
      : updates === ready
        ? `update ${ready} ${ready === 1 ? 'product' : 'products'}`
        : `send ${ready}: ${ready - updates} new, ${updates} ${updates === 1 ? 'update' : 'updates'}`;
  return (
    <Group wrap="wrap" align="flex-end">
      <NumberInput
        label="At a time"
        min={1}
        max={MAX_CONCURRENCY}
        w={100}
        value={props.concurrency}
        onChange={(v) => props.onConcurrency(typeof v === 'number' ? v : DEFAULT_CONCURRENCY)}
        disabled={props.running}
      />
      <Button disabled={!props.canStart} onClick={props.onStart}>
        {props.startLabel ??
          (what !== null
            ? started
              ? `Resume: ${what}`
              : `${what.charAt(0).toUpperCase()}${what.slice(1)}`
            : started
              ? `Resume: create the ${ready} ready`
              : `Create ${ready} ${ready === 1 ? 'product' : 'products'}`)}
      </Button>
      {started && (
        <>
          <Button variant="default" onClick={() => props.onReport?.()} disabled={!props.onReport}>
            Report (CSV)
          </Button>
          <Button
            variant="default"
            onClick={() => props.onReportWorkbook?.()}
            disabled={!props.onReportWorkbook}
            loading={props.downloading}
          >
            Report (Excel)
          </Button>
        </>
      )}
      <SegmentedControl
        aria-label="Rows shown"
        value={props.filter}
        onChange={props.onFilter}
        data={[
          { value: 'all', label: 'All rows' },
          { value: 'problems', label: 'Problems only' },
          { value: 'unsent', label: 'Not created' },
        ]}
      />
    </Group>
  );
}
