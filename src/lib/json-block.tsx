/**
 * JSON text on screen, for every feature: shown as text (never markup), wrapped to the width, in the
 * monospace font. With `maxHeight` it scrolls inside its own box, which the keyboard can then reach and
 * scroll (a named region), as a box that only a mouse can scroll would lock keyboard users out.
 */
import { Code } from '@mantine/core';
import type { ReactNode } from 'react';
import classes from './json-block.module.css';

interface JsonBlockProps {
  /** The JSON text, already indented: `reindentJson(text)` keeps a server's own text, `JSON.stringify(value, null, 2)` for our own values. */
  json: string;
  /** What the JSON is, e.g. "What the platform answered": the scrolling box's name. */
  label: string;
  /** Scroll inside the block beyond this height (CSS length or pixels); grows with its text when left out. */
  maxHeight?: number | string;
  /** What to show for the text when it is not the text alone (e.g. with its invisible characters marked). */
  children?: ReactNode;
}

export function JsonBlock({ json, label, maxHeight, children = json }: JsonBlockProps) {
  if (maxHeight === undefined) {
    return (
      <Code block className={classes.block}>
        {children}
      </Code>
    );
  }
  return (
    <Code block className={`${classes.block} ${classes.scroll}`} mah={maxHeight} tabIndex={0} role="region" aria-label={label}>
      {children}
    </Code>
  );
}
