import { Stack, Text, TextInput } from '@mantine/core';
import { startTransition, useEffect, useMemo, useState } from 'react';
import { countRows, filterSections, type FieldSection } from './case-fields';
import { FieldTable } from './field-table';
import { useRememberedState } from './remembered-state';
import classes from './cases.module.css';

interface FieldsPanelProps {
  sections: readonly FieldSection[];
}

/**
 * `value`, once the frame that shows its change elsewhere (the typed key) is painted: then in a
 * transition, which the next key interrupts. React's own deferred value starts rendering before that
 * frame, and a keystroke then waited for some of the table's work (bench/cases.ts: p50 12 ms against
 * the bare input's 6 ms; with this, keystrokes measure as the bare input's).
 */
function useValueAfterPaint<T>(value: T): T {
  const [settled, setSettled] = useState(value);
  useEffect(() => {
    let timer: number | undefined;
    const frame = requestAnimationFrame(() => {
      timer = window.setTimeout(() => startTransition(() => setSettled(value)));
    });
    return () => {
      cancelAnimationFrame(frame);
      window.clearTimeout(timer);
    };
  }, [value]);
  return settled;
}

/**
 * The filter and the field table. The filter's text lives here (remembered beside the case, for when
 * Raw JSON was opened in between), not in the case above, so that a keystroke renders only the box and
 * the line under it; the table (memoised) follows once that frame is painted, in a transition the next
 * key interrupts, so typing never waits for the table. The filter is the way to find a field: the table
 * renders only the rows near the screen (see field-table.tsx), so the browser's own find does not see
 * the rest.
 */
export function FieldsPanel({ sections }: FieldsPanelProps) {
  const [filter, setFilter] = useRememberedState('filter', '');
  const deferredFilter = useValueAfterPaint(filter);
  const shown = useMemo(() => filterSections(sections, deferredFilter), [sections, deferredFilter]);
  const total = countRows(sections);
  const shownCount = countRows(shown);
  return (
    <Stack gap="sm">
      <TextInput
        label="Filter fields"
        description="Shows the fields whose key, label or value contains every word you type"
        placeholder="e.g. email, order, 2026"
        value={filter}
        onChange={(event) => setFilter(event.currentTarget.value)}
        type="search"
        classNames={{ description: classes.muted }}
        maw={480}
      />
      <Text size="sm" className={classes.muted} role="status" aria-live="polite">
        {deferredFilter.trim() === '' ? `${total} ${total === 1 ? 'field' : 'fields'}` : `Showing ${shownCount} of ${total} fields`}
      </Text>
      {shownCount === 0 ? (
        <Text>No field matches “{deferredFilter.trim()}”.</Text>
      ) : (
        <FieldTable sections={shown} withSectionTitles={sections.length > 1} />
      )}
    </Stack>
  );
}
