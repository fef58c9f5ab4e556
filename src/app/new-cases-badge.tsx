import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { inboxCountsQuery, newCasesBadge } from '@/lib/inbox-counts';
import hidden from '@/lib/visually-hidden.module.css';

/**
 * A chunk of its own, loaded once the page is up (shell.tsx): the first page does not carry it.
 *
 * Cases' label in the navigation with the site's cases new to the person beside it: "Cases 12" on screen,
 * "Cases, 12 new" to a screen reader (said in one piece: a badge's own box would part "Cases" from the
 * comma). Just the label when there are none, or the counts could not be had.
 */
export function CasesWithNew({ label, site, active }: { label: string; site: string; active: boolean }) {
  const { data } = useQuery(inboxCountsQuery(site));
  const badge = newCasesBadge(data);
  if (!badge) return label;
  return (
    <>
      <span aria-hidden="true">{label}</span>
      {/* On the highlighted entry's filled background a white badge stays readable. */}
      <Badge component="span" size="sm" ml={8} variant={active ? 'white' : 'filled'} aria-hidden="true" data-testid="new-cases">
        {badge.text}
      </Badge>
      <span className={hidden.visuallyHidden}>
        {label}, {badge.spoken}
      </span>
    </>
  );
}
