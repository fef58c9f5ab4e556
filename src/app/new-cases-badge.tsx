import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { inboxCountsQuery, newCasesBadge } from '@/lib/inbox-counts';
import hidden from '@/lib/visually-hidden.module.css';

/**
 * True once the page has loaded and painted: the counts are asked for then, so they never compete with what
 * the first paint needs (the page's scripts, the sites, a case's lookup).
 */
function usePageUp(): boolean {
  const [up, setUp] = useState(false);
  useEffect(() => {
    let timer: number | undefined;
    const later = () => {
      timer = window.setTimeout(() => setUp(true), 0);
    };
    if (document.readyState === 'complete') later();
    else window.addEventListener('load', later, { once: true });
    return () => {
      window.removeEventListener('load', later);
      window.clearTimeout(timer);
    };
  }, []);
  return up;
}

/**
 * Cases' label in the navigation with the site's cases new to the person beside it: "Cases 12" on screen,
 * "Cases, 12 new" to a screen reader (said in one piece: a badge's own box would part "Cases" from the
 * comma). Just the label when there are none, or the counts could not be had.
 */
export function CasesWithNew({ label, site, active }: { label: string; site: string; active: boolean }) {
  const up = usePageUp();
  const { data } = useQuery({ ...inboxCountsQuery(site), enabled: up });
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
