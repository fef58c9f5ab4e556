/**
 * A drawer on the right that shows one thing loaded when it opens (an activity entry, a created product):
 * its loading state, its failure in the one translator's words, then what it holds.
 */
import { Alert, Drawer, Loader } from '@mantine/core';
import type { ReactNode } from 'react';
import { classifyApiError } from './api-error';
import { describeFailure } from './api-error-class';

export function DetailsDrawer({
  opened,
  onClose,
  title,
  loading,
  failure,
  what,
  children,
}: {
  opened: boolean;
  onClose: () => void;
  title: string;
  loading: boolean;
  /** The error of the load, or null. */
  failure: unknown;
  /** What is loaded, for its loading label and failure title: "the entry", "the product". */
  what: string;
  children: ReactNode;
}) {
  return (
    <Drawer opened={opened} onClose={onClose} position="right" size="lg" closeButtonProps={{ 'aria-label': 'Close' }} title={title}>
      {loading ? <Loader aria-label={`Loading ${what}`} /> : null}
      {failure ? (
        <Alert color="red" title={`${what.charAt(0).toUpperCase()}${what.slice(1)} could not be loaded`}>
          {describeFailure(classifyApiError(failure))}
        </Alert>
      ) : null}
      {children}
    </Drawer>
  );
}
