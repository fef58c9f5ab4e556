import { Badge } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { getServerMeta } from '@/lib/api-client';

/** Tells staff at a glance whether they are working on the sandbox or a live site. */
export function ModeBadge() {
  const meta = useQuery({ queryKey: ['server-meta'], queryFn: ({ signal }) => getServerMeta(signal), staleTime: Infinity });
  if (meta.isPending) return <Badge variant="light" color="gray">Connecting…</Badge>;
  if (meta.isError) {
    return (
      <Badge variant="filled" color="red" title={meta.error.message}>
        Server unreachable
      </Badge>
    );
  }
  if (meta.data.mode === 'sandbox') {
    // A title, not a tooltip component: the shell stays light (the tooltip library loads with the editor).
    return (
      <Badge
        variant="filled"
        color="teal.9"
        data-mode="sandbox"
        title="Calls go to the built-in sandbox: a local stand-in of the platform. Nothing reaches a live site."
      >
        Sandbox · site {meta.data.siteId}
      </Badge>
    );
  }
  return (
    <Badge variant="filled" color="orange.9" data-mode="platform" title={`Calls go to the live platform at ${meta.data.host}.`}>
      Live · {meta.data.host} · site {meta.data.siteId}
    </Badge>
  );
}
