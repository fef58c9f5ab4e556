import { Fragment } from 'react';
import { revealInvisible } from './reveal-invisible';
import classes from './cases.module.css';

/**
 * Text from the platform, with its invisible characters shown as marks (see reveal-invisible.ts). Plain
 * text, the usual case, costs nothing more than the string itself.
 */
export function Revealed({ text }: { text: string }) {
  const parts = revealInvisible(text);
  if (parts.length === 1 && typeof parts[0] === 'string') return parts[0];
  return (
    <>
      {parts.map((part, index) =>
        typeof part === 'string' ? (
          <Fragment key={index}>{part}</Fragment>
        ) : (
          <span key={index} className={classes.invisibleMark}>
            {part.mark}
          </span>
        ),
      )}
    </>
  );
}
