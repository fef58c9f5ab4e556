import { Badge } from '@mantine/core';
import type { SiteInfo } from '@/contract/site-info';

/** Tells staff at a glance whether they are working on the sandbox or a live site; readable without hovering. */
export function ModeBadge({ site, withName = false }: { site: SiteInfo; withName?: boolean }) {
  const name = withName ? `${site.name} · ` : '';
  if (site.mode === 'sandbox') {
    return (
      <Badge variant="filled" color="teal.9" data-mode="sandbox" title="Calls go to the built-in sandbox: a local stand-in of the platform. Nothing reaches a live site.">
        {name}Sandbox · site {site.siteId}
      </Badge>
    );
  }
  return (
    <Badge variant="filled" color="orange.9" data-mode="platform" title={`Calls go to the live platform at ${site.host ?? ''}.`}>
      {name}Live · {site.host} · site {site.siteId}
    </Badge>
  );
}
