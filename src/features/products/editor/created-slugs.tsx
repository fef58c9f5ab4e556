/**
 * Slugs already created on the site the editor creates on, each with who created it and when (the team's,
 * from the activity record, and this browser's own): under the slug, a warning when the one typed is
 * among them. The page gives the list; an editor without one warns of nothing.
 */
import { Text } from '@mantine/core';
import { createContext, useContext } from 'react';
import { useWatch } from 'react-hook-form';
import { DateTime } from '@/lib/date-time';
import type { ProductForm } from '../model/product-form';

export interface CreatedSlug {
  /** Who created it: a person's name, "Local demo", or "you, from this browser". */
  by: string;
  at: number;
}

export type CreatedSlugs = ReadonlyMap<string, CreatedSlug>;

export const CreatedSlugsContext = createContext<CreatedSlugs | undefined>(undefined);
/** Where the editor creates ("Harbour Linen"). */
export const TargetNameContext = createContext('this site');

/** The warning under the slug; subscribes to the slug alone, so other fields' keystrokes do not render it. */
export function CreatedSlugWarning() {
  const created = useContext(CreatedSlugsContext);
  const siteName = useContext(TargetNameContext);
  const slug = useWatch<ProductForm, 'slug'>({ name: 'slug' }).trim();
  const earlier = slug ? created?.get(slug) : undefined;
  return (
    // Announced as it appears, without taking the focus from the field being typed in.
    <div aria-live="polite">
      {earlier ? (
        <Text size="sm" c="orange.8" data-testid="created-slug-warning">
          “{slug}” was already created on {siteName} by {earlier.by}, <DateTime date={new Date(earlier.at)} />. Make sure this is not the
          same product again.
        </Text>
      ) : null}
    </div>
  );
}
