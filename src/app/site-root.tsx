/**
 * Which site the page works on, before anything else renders. With one site the addresses stay short
 * (`/cases/3/48217`); with several, every address names its site (`/s/harbour-linen/cases/3/48217`), so a
 * deep link opens the same case on the same site. Each site gets its own query cache, API address and
 * browser storage (site-scope.ts), so nothing of one site is shown or sent on another.
 */
import { Alert, Anchor, Button, Center, List, Loader, Stack, Text, Title } from '@mantine/core';
import { QueryClientProvider, useQuery, type QueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import type { SiteInfo } from '@/contract/site-info';
import { getSites } from '@/lib/api-client';
import { classifyApiError } from '@/lib/api-error';
import { describeFailure } from '@/lib/api-error-class';
import { SiteContext, siteHref } from '@/lib/site-context';
import { setSiteScope } from '@/lib/site-scope';
import { createQueryClient } from './query-client';
import { AppRouter } from './router';

const SITE_PREFIX = /^\/s\/([^/]+)(\/.*)?$/;

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function UnknownSite({ id, sites }: { id: string; sites: readonly SiteInfo[] }) {
  return (
    <Center mih="100vh" p="md">
      <Stack maw={560}>
        <Title order={1}>No site called “{id}”</Title>
        <Text>
          This server works on {sites.length} {sites.length === 1 ? 'site' : 'sites'}, and “{id}” is not one of them. The link may be from
          another deployment, or the site may have been renamed in the site profile.
        </Text>
        <List>
          {sites.map((site) => (
            <List.Item key={site.id}>
              <Anchor href={siteHref(site.id, '/cases', true)}>{site.name}</Anchor> ({site.id})
            </List.Item>
          ))}
        </List>
      </Stack>
    </Center>
  );
}

export function SiteRoot() {
  const sites = useQuery({ queryKey: ['sites'], queryFn: ({ signal }) => getSites(signal), staleTime: Infinity, gcTime: Infinity });
  // One query cache per site, kept while the page lives: a case seen on one site is never shown for another.
  const [clients] = useState(() => new Map<string, QueryClient>());
  const pathname = window.location.pathname;

  const chosen = useMemo(() => {
    if (!sites.data) return null;
    const list = sites.data;
    const match = SITE_PREFIX.exec(pathname);
    const first = list[0] as SiteInfo;
    if (list.length === 1) {
      // A long address of the only site (from a deployment that had several) becomes the short one.
      if (match && decode(match[1] ?? '') === first.id)
        window.history.replaceState(window.history.state, '', (match[2] ?? '/') + window.location.search);
      return { site: first, basename: '' };
    }
    if (!match) {
      // An address that names no site opens on the first, with the address saying so.
      window.history.replaceState(window.history.state, '', siteHref(first.id, pathname, true) + window.location.search);
      return { site: first, basename: siteHref(first.id, '', true) };
    }
    const id = decode(match[1] ?? '');
    const site = list.find((s) => s.id === id);
    return site ? { site, basename: siteHref(site.id, '', true) } : { unknown: id };
  }, [sites.data, pathname]);

  if (sites.isPending) {
    return (
      <Center mih="100vh" aria-busy="true">
        <Loader aria-label="Connecting to the server" />
      </Center>
    );
  }
  if (sites.isError) {
    return (
      <Center mih="100vh" p="md">
        <Alert color="red" title="site-admin’s server cannot be reached" maw={560} role="alert">
          <Stack gap="sm">
            <Text size="sm">{describeFailure(classifyApiError(sites.error))}</Text>
            <Button onClick={() => void sites.refetch()} w="fit-content">
              Try again
            </Button>
          </Stack>
        </Alert>
      </Center>
    );
  }
  if (!chosen) return null;
  if ('unknown' in chosen) return <UnknownSite id={chosen.unknown ?? ''} sites={sites.data} />;

  const many = sites.data.length > 1;
  const { site, basename } = chosen;
  setSiteScope(many ? site.id : null);
  let client = clients.get(site.id);
  if (!client) {
    client = createQueryClient();
    clients.set(site.id, client);
  }
  return (
    <SiteContext.Provider value={{ site, sites: sites.data, many }}>
      <QueryClientProvider client={client}>
        <AppRouter basename={basename} />
      </QueryClientProvider>
    </SiteContext.Provider>
  );
}
