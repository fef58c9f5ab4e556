import { Badge, Tooltip } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getServerMeta } from '@/lib/api-client';

/** Tells staff at a glance whether they are working on the sandbox or a live site. */
export function ModeBadge() {
  const meta = useQuery({ queryKey: ['server-meta'], queryFn: ({ signal }) => getServerMeta(signal), staleTime: Infinity });
  if (meta.isPending) return <Badge variant="light" color="gray">Connecting…</Badge>;
  if (meta.isError) {
    return (
      <Tooltip label={meta.error.message}>
        <Badge variant="filled" color="red">
          Server unreachable
        </Badge>
      </Tooltip>
    );
  }
  if (meta.data.mode === 'sandbox') {
    return (
      <Tooltip label="Calls go to the built-in sandbox: a local stand-in of the platform. Nothing reaches a live site.">
        <Badge variant="filled" color="teal.9" data-mode="sandbox">
          Sandbox · site {meta.data.siteId}
        </Badge>
      </Tooltip>
    );
  }
  return (
    <Tooltip label={`Calls go to the live platform at ${meta.data.host}.`}>
      <Badge variant="filled" color="orange.9" data-mode="platform">
        Live · {meta.data.host} · site {meta.data.siteId}
      </Badge>
    </Tooltip>
  );
}
