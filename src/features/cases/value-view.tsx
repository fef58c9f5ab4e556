/**
 * Renders one value of a case by what it is. Everything is React text: markup in the data is shown as
 * typed, never interpreted, and invisible characters are shown as marks (Revealed). Objects and lists of
 * objects open and close; small ones start open. Long text is cut to a few lines until asked for.
 *
 * Plain elements rather than Mantine's components: a case may hold hundreds of values, and each of those
 * components costs a few hooks per value.
 */
import { useEffect, useId, useMemo, useRef, type ReactNode } from 'react';
import { isJsonObject } from '@/contract/site-api-basics';
import { classifyValue, type Scalar } from './classify-value';
import { humaniseKey } from './case-fields';
import { DateValue } from './date-text';
import { hiddenAmount, isLongText, previewOf, SHOWN_CHIPS } from './long-value';
import { useRememberedState } from './remembered-state';
import { Revealed } from './revealed-text';
import hidden from '@/lib/visually-hidden.module.css';
import classes from './cases.module.css';

interface ValueViewProps {
  value: unknown;
  /** The key the value sits under: it tells a timestamp from an order number. */
  fieldKey?: string;
  /** What the value is called, for the names of its buttons. */
  label: string;
  depth?: number;
  /** The value's place in the case (`value:properties.address/2`): what was opened in it is kept under it. */
  stateKey?: string;
}

/** A nested value's place: its parent's and its own position in it. */
const childKey = (stateKey: string | undefined, index: number) => (stateKey === undefined ? undefined : `${stateKey}/${index}`);

/** How many scalars a value holds, counting no further than `limit`. */
function leafCount(value: unknown, limit: number): number {
  if (!Array.isArray(value) && !isJsonObject(value)) return 1;
  let count = 0;
  for (const item of Object.values(value)) {
    count += leafCount(item, limit - count);
    if (count > limit) break;
  }
  return count;
}

export function ValueView({ value, fieldKey, label, depth = 0, stateKey }: ValueViewProps) {
  const kind = classifyValue(value, fieldKey);
  switch (kind.kind) {
    case 'empty':
      return <span className={`${classes.muted} ${classes.empty}`}>({kind.description})</span>;
    case 'boolean':
      return (
        <span>
          {kind.value ? 'Yes' : 'No'} <span className={classes.muted}>({String(kind.value)})</span>
        </span>
      );
    case 'number':
      return <span>{kind.text}</span>;
    case 'date':
      return <DateValue date={kind.date} dateOnly={kind.dateOnly} />;
    case 'url':
      return (
        <a href={kind.href} target="_blank" rel="noopener noreferrer" className={classes.link}>
          <Revealed text={String(value).trim()} />
          <span className={hidden.visuallyHidden}> (opens in a new tab)</span>
        </a>
      );
    case 'email':
      return (
        <a href={`mailto:${kind.address}`} className={classes.link}>
          <Revealed text={kind.address} />
        </a>
      );
    case 'multiline':
    case 'text':
      return isLongText(kind.text) ? (
        <LongText text={kind.text} label={label} stateKey={stateKey} />
      ) : (
        <p className={kind.kind === 'multiline' ? classes.preWrap : classes.textValue}>
          <Revealed text={kind.text} />
        </p>
      );
    case 'chips':
      return <Chips items={kind.items} label={label} stateKey={stateKey} />;
    case 'object':
      return (
        <Disclosure
          summary={`${kind.entries.length} ${kind.entries.length === 1 ? 'field' : 'fields'}`}
          label={label}
          preview={kind.entries.map(([key]) => key).join(', ')}
          defaultOpen={depth <= 1 && leafCount(value, 13) <= 12}
          stateKey={stateKey}
        >
          <EntriesTable entries={kind.entries} label={label} depth={depth} stateKey={stateKey} />
        </Disclosure>
      );
    case 'list':
      return (
        <Disclosure
          summary={`${kind.items.length} ${kind.items.length === 1 ? 'item' : 'items'}`}
          label={label}
          preview=""
          defaultOpen={depth <= 1 && leafCount(value, 13) <= 12}
          stateKey={stateKey}
        >
          <ItemsList items={kind.items} label={label} depth={depth} stateKey={stateKey} />
        </Disclosure>
      );
  }
}

/** "Show all (200 KB)" and "Show less": one button that stays where it is, below the text. */
function ShowAllButton({
  all,
  amount,
  label,
  controls,
  onToggle,
}: {
  all: boolean;
  amount: string;
  label: string;
  controls: string;
  onToggle: () => void;
}) {
  const button = useRef<HTMLButtonElement>(null);
  const collapsed = useRef(false);
  useEffect(() => {
    // After "Show less" the text above shrinks: keep the button (and the focus on it) in view.
    if (!all && collapsed.current) button.current?.scrollIntoView({ block: 'nearest' });
    collapsed.current = false;
  }, [all]);
  const text = all ? 'Show less' : `Show all (${amount})`;
  return (
    <button
      ref={button}
      type="button"
      className={classes.textButton}
      aria-expanded={all}
      aria-controls={controls}
      aria-label={`${text} of ${label}`}
      onClick={() => {
        collapsed.current = all;
        onToggle();
      }}
    >
      {text}
    </button>
  );
}

/** Text cut to a few lines: only its start is on the page until "Show all". */
function LongText({ text, label, stateKey }: { text: string; label: string; stateKey: string | undefined }) {
  const [all, setAll] = useRememberedState(stateKey, false);
  const id = useId();
  const amount = useMemo(() => hiddenAmount(text), [text]);
  return (
    <div>
      <p id={id} className={all ? classes.preWrap : `${classes.preWrap} ${classes.clamped}`}>
        <Revealed text={all ? text : previewOf(text)} />
      </p>
      <ShowAllButton all={all} amount={amount} label={label} controls={id} onToggle={() => setAll(!all)} />
    </div>
  );
}

function Chips({ items, label, stateKey }: { items: Scalar[]; label: string; stateKey: string | undefined }) {
  const [all, setAll] = useRememberedState(stateKey, false);
  const id = useId();
  const cut = items.length > SHOWN_CHIPS && !all;
  return (
    <div>
      <ul id={id} className={classes.chips} aria-label={label}>
        {(cut ? items.slice(0, SHOWN_CHIPS) : items).map((item, index) => (
          <li key={index} className={classes.chip}>
            <Revealed text={String(item)} />
          </li>
        ))}
      </ul>
      {items.length > SHOWN_CHIPS && (
        <ShowAllButton all={all} amount={`${items.length} items`} label={label} controls={id} onToggle={() => setAll(!all)} />
      )}
    </div>
  );
}

interface DisclosureProps {
  summary: string;
  label: string;
  preview: string;
  defaultOpen: boolean;
  stateKey: string | undefined;
  children: ReactNode;
}

function Disclosure({ summary, label, preview, defaultOpen, stateKey, children }: DisclosureProps) {
  const [open, setOpen] = useRememberedState(stateKey, defaultOpen);
  const id = useId();
  return (
    <div>
      <div className={classes.disclosureLine}>
        <button
          type="button"
          className={classes.textButton}
          aria-expanded={open}
          aria-controls={id}
          aria-label={`${open ? 'Hide' : 'Show'} ${summary} of ${label}`}
          onClick={() => setOpen(!open)}
        >
          {open ? 'Hide' : 'Show'} {summary}
        </button>
        {!open && preview && (
          <span className={`${classes.muted} ${classes.preview}`}>
            <Revealed text={preview} />
          </span>
        )}
      </div>
      <div id={id} hidden={!open} className={classes.disclosed}>
        {open && children}
      </div>
    </div>
  );
}

interface NestedProps {
  label: string;
  depth: number;
  stateKey: string | undefined;
}

/** Nested fields as a definition list, each value under its name: it stays readable however deep. */
function EntriesTable({ entries, label, depth, stateKey }: NestedProps & { entries: [string, unknown][] }) {
  return (
    <dl className={classes.nested}>
      {entries.map(([key, item], index) => (
        <div key={key} className={classes.nestedEntry}>
          <dt className={classes.fieldName}>
            <span className={classes.fieldLabel}>
              <Revealed text={humaniseKey(key)} />
            </span>{' '}
            <code className={classes.keyCode}>
              <Revealed text={key} />
            </code>
          </dt>
          <dd className={classes.wrap}>
            <ValueView
              value={item}
              fieldKey={key}
              label={`${label}, ${humaniseKey(key)}`}
              depth={depth + 1}
              stateKey={childKey(stateKey, index)}
            />
          </dd>
        </div>
      ))}
    </dl>
  );
}

function ItemsList({ items, label, depth, stateKey }: NestedProps & { items: unknown[] }) {
  return (
    <ol className={`${classes.plainList} ${classes.nested} ${classes.items}`}>
      {items.map((item, index) => {
        const itemLabel = `${label}, item ${index + 1}`;
        return (
          <li key={index}>
            <span className={classes.itemLabel}>Item {index + 1}</span>
            {isJsonObject(item) && Object.keys(item).length > 0 ? (
              <EntriesTable entries={Object.entries(item)} label={itemLabel} depth={depth + 1} stateKey={childKey(stateKey, index)} />
            ) : (
              <ValueView value={item} label={itemLabel} depth={depth + 1} stateKey={childKey(stateKey, index)} />
            )}
          </li>
        );
      })}
    </ol>
  );
}
