import { Badge, Box, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getServerMeta } from '@/lib/api-client';

function useServerMeta() {
  return useQuery({ queryKey: ['server-meta'], queryFn: ({ signal }) => getServerMeta(signal), staleTime: Infinity });
}

/**
 * Tells staff at a glance whether they are working on the sandbox or a live site. On a phone a live
 * site's badge leaves out the host, which ModeNote (in the navigation) spells out.
 */
export function ModeBadge() {
  const meta = useServerMeta();
  if (meta.isPending) return <Badge variant="light" color="gray">Connecting…</Badge>;
  if (meta.isError) {
    return (
      <Badge variant="filled" color="red">
        Server unreachable
      </Badge>
    );
  }
  if (meta.data.mode === 'sandbox') {
    return (
      <Badge variant="filled" color="teal.9" data-mode="sandbox">
        Sandbox · site {meta.data.siteId}
      </Badge>
    );
  }
  return (
    <Badge variant="filled" color="orange.9" data-mode="platform">
      Live ·{' '}
      <Box component="span" visibleFrom="sm">
        {meta.data.host} ·{' '}
      </Box>
      site {meta.data.siteId}
    </Badge>
  );
}

/** Where calls go, in words: under the navigation, so that it is never only in a hover title. */
export function ModeNote() {
  const meta = useServerMeta();
  if (meta.isPending) return null;
  let text: string;
  if (meta.isError) text = `site-admin's server did not say where calls go: ${meta.error.message}`;
  else if (meta.data.mode === 'sandbox') {
    text = `Calls go to the built-in sandbox (site ${meta.data.siteId}), a local stand-in of the platform. Nothing reaches a live site.`;
  } else text = `Calls go to the live platform at ${meta.data.host}, site ${meta.data.siteId}.`;
  return (
    <Text size="xs" c="dimmed" px="sm" py="xs">
      {text}
    </Text>
  );
}
