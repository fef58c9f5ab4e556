/**
 * Renders one value of a case by what it is. Everything is React text: markup in the data is shown as
 * typed, never interpreted. Objects and lists of objects open and close; small ones start open.
 */
import { Anchor, Button, Code, Group, Pill, Stack, Text, VisuallyHidden } from '@mantine/core';
import { useId, useState, type ReactNode } from 'react';
import { classifyValue, isPlainObject } from './classify-value';
import { humaniseKey } from './case-fields';
import { DateValue } from './date-text';
import classes from './cases.module.css';

interface ValueViewProps {
  value: unknown;
  /** The key the value sits under: it tells a timestamp from an order number. */
  fieldKey?: string;
  /** What the value is called, for the names of its buttons. */
  label: string;
  depth?: number;
}

/** How many scalars a value holds, counting no further than `limit`. */
function leafCount(value: unknown, limit: number): number {
  if (!Array.isArray(value) && !isPlainObject(value)) return 1;
  let count = 0;
  for (const item of Object.values(value)) {
    count += leafCount(item, limit - count);
    if (count > limit) break;
  }
  return count;
}

export function ValueView({ value, fieldKey, label, depth = 0 }: ValueViewProps) {
  const kind = classifyValue(value, fieldKey);
  switch (kind.kind) {
    case 'empty':
      return <Text span className={`${classes.muted} ${classes.empty}`}>({kind.description})</Text>;
    case 'boolean':
      return (
        <Text span>
          {kind.value ? 'Yes' : 'No'} <span className={classes.muted}>({String(kind.value)})</span>
        </Text>
      );
    case 'number':
      return <Text span>{kind.text}</Text>;
    case 'date':
      return <DateValue date={kind.date} dateOnly={kind.dateOnly} />;
    case 'url':
      return (
        <Anchor href={kind.href} target="_blank" rel="noopener noreferrer" className={classes.link}>
          {String(value).trim()}
          <VisuallyHidden> (opens in a new tab)</VisuallyHidden>
        </Anchor>
      );
    case 'email':
      return (
        <Anchor href={`mailto:${kind.address}`} className={classes.link}>
          {kind.address}
        </Anchor>
      );
    case 'multiline':
      return <Text className={classes.preWrap}>{kind.text}</Text>;
    case 'text':
      return <Text span className={classes.wrap}>{kind.text}</Text>;
    case 'chips':
      return (
        <Group component="ul" gap={6} className={classes.plainList} aria-label={label}>
          {kind.items.map((item, index) => (
            <li key={index}>
              <Pill size="md" className={classes.chip}>
                {String(item)}
              </Pill>
            </li>
          ))}
        </Group>
      );
    case 'object':
      return (
        <Disclosure
          summary={`${kind.entries.length} ${kind.entries.length === 1 ? 'field' : 'fields'}`}
          label={label}
          preview={kind.entries.map(([key]) => key).join(', ')}
          defaultOpen={depth <= 1 && leafCount(value, 13) <= 12}
        >
          <EntriesTable entries={kind.entries} label={label} depth={depth} />
        </Disclosure>
      );
    case 'list':
      return (
        <Disclosure
          summary={`${kind.items.length} ${kind.items.length === 1 ? 'item' : 'items'}`}
          label={label}
          preview=""
          defaultOpen={depth <= 1 && leafCount(value, 13) <= 12}
        >
          <ItemsList items={kind.items} label={label} depth={depth} />
        </Disclosure>
      );
  }
}

interface DisclosureProps {
  summary: string;
  label: string;
  preview: string;
  defaultOpen: boolean;
  children: ReactNode;
}

function Disclosure({ summary, label, preview, defaultOpen, children }: DisclosureProps) {
  const [open, setOpen] = useState(defaultOpen);
  const id = useId();
  return (
    <Stack gap={4}>
      <Group gap="xs" wrap="nowrap" align="baseline">
        <Button
          variant="subtle"
          size="compact-sm"
          aria-expanded={open}
          aria-controls={id}
          aria-label={`${open ? 'Hide' : 'Show'} ${summary} of ${label}`}
          onClick={() => setOpen((was) => !was)}
        >
          {open ? 'Hide' : 'Show'} {summary}
        </Button>
        {!open && preview && (
          <Text span size="sm" className={`${classes.muted} ${classes.wrap}`} lineClamp={1}>
            {preview}
          </Text>
        )}
      </Group>
      <div id={id} hidden={!open}>
        {open && children}
      </div>
    </Stack>
  );
}

interface NestedProps {
  label: string;
  depth: number;
}

/** Nested fields as a definition list, each value under its name: it stays readable however deep. */
function EntriesTable({ entries, label, depth }: NestedProps & { entries: [string, unknown][] }) {
  return (
    <dl className={classes.nested}>
      {entries.map(([key, item]) => (
        <div key={key} className={classes.nestedEntry}>
          <dt>
            <Text span size="sm" fw={600}>
              {humaniseKey(key)}
            </Text>{' '}
            <Code className={classes.keyCode}>{key}</Code>
          </dt>
          <dd className={classes.wrap}>
            <ValueView value={item} fieldKey={key} label={`${label}, ${humaniseKey(key)}`} depth={depth + 1} />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function ItemsList({ items, label, depth }: NestedProps & { items: unknown[] }) {
  return (
    <Stack component="ol" gap="xs" className={`${classes.plainList} ${classes.nested}`}>
      {items.map((item, index) => {
        const itemLabel = `${label}, item ${index + 1}`;
        return (
          <li key={index}>
            <Text size="sm" fw={600}>
              Item {index + 1}
            </Text>
            {isPlainObject(item) && Object.keys(item).length > 0 ? (
              <EntriesTable entries={Object.entries(item)} label={itemLabel} depth={depth + 1} />
            ) : (
              <ValueView value={item} label={itemLabel} depth={depth + 1} />
            )}
          </li>
        );
      })}
    </Stack>
  );
}
