import { Badge, Box, Text } from '@mantine/core';
import type { SiteInfo } from '@/contract/site-info';

/**
 * Tells staff at a glance whether they are working on the sandbox or a live site. On a phone a live
 * site's badge leaves out the host, and the sandbox's its site id, which ModeNote (in the navigation)
 * spells out: nothing is said only in a hover title.
 */
export function ModeBadge({ site }: { site: SiteInfo }) {
  if (site.mode === 'sandbox') {
    return (
      <Badge variant="filled" color="teal.9" data-mode="sandbox" style={{ flexShrink: 0 }}>
        Sandbox
        <Box component="span" visibleFrom="sm">
          {' '}
          · site {site.siteId}
        </Box>
      </Badge>
    );
  }
  return (
    <Badge variant="filled" color="orange.9" data-mode="platform" style={{ flexShrink: 0 }}>
      Live ·{' '}
      <Box component="span" visibleFrom="sm">
        {site.host} ·{' '}
      </Box>
      site {site.siteId}
    </Badge>
  );
}

/** Where calls go, in words: under the navigation, so that it is never only in a hover title. */
export function ModeNote({ site, many }: { site: SiteInfo; many: boolean }) {
  const which = many ? `${site.name}: calls` : 'Calls';
  const text =
    site.mode === 'sandbox'
      ? `${which} go to the built-in sandbox (site ${site.siteId}), a local stand-in of the platform. Nothing reaches a live site.`
      : `${which} go to the live platform at ${site.host ?? ''}, site ${site.siteId}.`;
  return (
    <Text size="xs" c="dimmed" px="sm" py="xs">
      {text}
    </Text>
  );
}
