/**
 * Which site the page works on, before anything else renders. With one site the addresses stay short
 * (`/cases/3/48217`); with several, every address names its site (`/s/harbour-linen/cases/3/48217`), so a
 * deep link opens the same case on the same site. Each site gets its own query cache, API address and
 * browser storage (site-scope.ts), so nothing of one site is shown or sent on another.
 */
import { Alert, Anchor, Button, Center, List, Loader, Stack, Text, Title } from '@mantine/core';
import { QueryClientProvider, useQuery, useQueryClient, type QueryClient } from '@tanstack/react-query';
import { lazy, Suspense, useCallback, useMemo, useState } from 'react';
import type { SiteInfo } from '@/contract/site-info';
import { getSites, type SitesAnswer } from '@/lib/api-client';
import { classifyApiError } from '@/lib/api-error';
import { describeFailure } from '@/lib/api-error-class';
import { isNotSignedIn } from '@/lib/own-api-failure';
import { SiteContext, siteHref } from '@/lib/site-context';
import { setSiteScope } from '@/lib/site-scope';
import { caseIdentifierViolations } from '@/contract/identifiers';
import { formCaseQueryOptions } from '@/features/cases/case-query';
import { matchPathName } from '@/lib/paths';
import { createQueryClient } from './query-client';
import { AppRouter } from './router';
import { NoSites } from './no-sites';

// Its own chunk: a browser already signed in never loads it.
const SignInPage = lazy(() => import('./sign-in-page'));

const SITE_PREFIX = /^\/s\/([^/]+)(\/.*)?$/;

function decode(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

function UnknownSite({ id, sites, signedIn }: { id: string; sites: readonly SiteInfo[]; signedIn: boolean }) {
  return (
    <Center mih="100vh" p="md">
      <Stack maw={560}>
        <Title order={1}>{signedIn ? `No site “${id}” that you may use` : `No site called “${id}”`}</Title>
        <Text>
          {signedIn
            ? `You may use ${sites.length} ${sites.length === 1 ? 'site' : 'sites'} here, and “${id}” is not one of them. If you should work on it, ask an owner of site-admin for a role on it; the link may also be from another deployment, or the site renamed.`
            : `This server works on ${sites.length} ${sites.length === 1 ? 'site' : 'sites'}, and “${id}” is not one of them. The link may be from another deployment, or the site may have been renamed in the site profile.`}
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
  const queryClient = useQueryClient();
  const answer = useQuery({
    queryKey: ['sites'],
    queryFn: ({ signal }) => getSites(signal),
    staleTime: Infinity,
    gcTime: Infinity,
    retry: (count, error) => !isNotSignedIn(error) && count < 2,
  });
  const { refetch } = answer;
  const sites = { isPending: answer.isPending, isError: answer.isError, error: answer.error, refetch, data: answer.data?.sites };
  // A changed name or grants: the header and the sites the person may use follow.
  const onMeChanged = useCallback(() => void refetch({ cancelRefetch: false }), [refetch]);
  // A session that ends while the page is open (timed out, signed out elsewhere, disabled): a site's query
  // or change that our server answers 401 asks for the sites again, whose own 401 brings the sign-in page
  // on the same address. Not cancelling a request under way: several calls may end with a 401 at once, and
  // each cancelling the last one's request could keep the sign-in page from ever showing.
  const onNotSignedIn = useCallback(() => void refetch({ cancelRefetch: false }), [refetch]);
  // One query cache per site, kept while the page lives: a case seen on one site is never shown for another.
  const [clients] = useState(() => new Map<string, QueryClient>());
  const pathname = window.location.pathname;

  const chosen = useMemo(() => {
    if (!sites.data) return null;
    const list = sites.data;
    if (list.length === 0) return null;
    const match = SITE_PREFIX.exec(pathname);
    const first = list[0] as SiteInfo;
    if (list.length === 1) {
      // A long address of the only site (from a deployment that had several) becomes the short one.
      if (match && decode(match[1] ?? '') !== first.id) return { unknown: decode(match[1] ?? '') };
      if (match) window.history.replaceState(window.history.state, '', (match[2] ?? '/') + window.location.search);
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
  if (sites.isError && isNotSignedIn(sites.error)) {
    return (
      <Suspense
        fallback={
          <Center mih="100vh" aria-busy="true">
            <Loader aria-label="Loading the sign-in page" />
          </Center>
        }
      >
        <SignInPage
          onSignedIn={({ me, sites: theirs }) => {
            const before = answer.data?.me;
            // Someone else on this browser: start the page afresh, so nothing the last person saw stays in memory.
            if (before?.kind === 'person' && (me.kind !== 'person' || me.id !== before.id)) window.location.reload();
            // The sign-in's answer carries the sites as `GET /api/sites` answers them: the page goes on
            // without asking for them again (one round trip fewer, 0.56 s on a slow mobile network).
            else queryClient.setQueryData<SitesAnswer>(['sites'], { sites: theirs, me });
          }}
          ended={answer.data !== undefined}
        />
      </Suspense>
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
  const me = answer.data?.me;
  if (!me) return null;
  if (sites.data?.length === 0) return <NoSites me={me} />;
  if (!chosen) return null;
  if ('unknown' in chosen) return <UnknownSite id={chosen.unknown ?? ''} sites={sites.data ?? []} signedIn={me.kind === 'person'} />;

  const all = sites.data ?? [];
  const many = all.length > 1;
  const { site, basename } = chosen;
  // A signed-in person's calls always name the site: their one site may be one of the server's several.
  setSiteScope(many ? site.id : null, many || me.kind === 'person' ? site.id : null);
  let client = clients.get(site.id);
  if (!client) {
    client = createQueryClient({ onNotSignedIn });
    clients.set(site.id, client);
    // The case the address names is asked for as soon as its site is known, once per site: not after the
    // shell and the Cases page have rendered (on Slow 4G, under load, those renders were 0.3 s between the
    // sites' answer and the lookup). The page's own query is the same one, so it is asked for once.
    const params = matchPathName('case', window.location.pathname.slice(basename.length) || '/');
    if (params && caseIdentifierViolations(params.form, params.id).length === 0) {
      void client.prefetchQuery(formCaseQueryOptions(params.form, params.id));
    }
  }
  return (
    <SiteContext.Provider value={{ site, sites: all, many, me, onNotSignedIn, onMeChanged }}>
      <QueryClientProvider client={client}>
        <AppRouter basename={basename} />
      </QueryClientProvider>
    </SiteContext.Provider>
  );
}
