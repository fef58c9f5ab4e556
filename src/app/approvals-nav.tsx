import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { capabilitiesOf, type SiteInfo } from '@/contract/site-info';
import { approvalsWaiting, changeCountsQuery, ruleGlancesQuery } from '@/lib/approval-counts';
import hidden from '@/lib/visually-hidden.module.css';

/**
 * A chunk of its own, loaded once the page is up (shell.tsx): the first page carries neither it nor its
 * two questions to the server.
 *
 * The navigation's Approvals entry, for whoever it is of use to: an owner of a site (who sets the site's
 * rule on the Approvals page), a person who may write on a site whose rule is on, and anyone with changes
 * waiting for them (to approve, or come back to them); nothing until the server has said which. Its label
 * carries the number waiting: "Approvals 3" on screen, "Approvals, 3 waiting for you" to a screen reader.
 */
export function ApprovalsEntry({
  sites,
  link,
}: {
  sites: readonly SiteInfo[];
  /** The navigation's link, given the label (told whether the entry is the current page). */
  link: (labelled: (active: boolean) => ReactNode) => ReactNode;
}) {
  const counts = useQuery(changeCountsQuery);
  const rules = useQuery(ruleGlancesQuery);
  const waiting = approvalsWaiting(counts.data);
  const writes = new Set(sites.filter((site) => capabilitiesOf(site).includes('create')).map((site) => site.id));
  const useful = waiting > 0 || (rules.data ?? []).some((rule) => rule.mayChange || (rule.on && writes.has(rule.site)));
  if (!useful) return null;
  return link((active) =>
    waiting === 0 ? (
      'Approvals'
    ) : (
      <>
        <span aria-hidden="true">Approvals</span>
        {/* On the highlighted entry's filled background a white badge stays readable. */}
        <Badge component="span" size="sm" ml={8} variant={active ? 'white' : 'filled'} aria-hidden="true" data-testid="approvals-waiting">
          {waiting > 99 ? '99+' : waiting}
        </Badge>
        <span className={hidden.visuallyHidden}>Approvals, {waiting} waiting for you</span>
      </>
    ),
  );
}
