import { MantineProvider } from '@mantine/core';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { render as rtlRender, type RenderOptions } from '@testing-library/react';
import type { ReactElement, ReactNode } from 'react';
import { createQueryClient } from '@/app/query-client';
import type { Me } from '@/contract/access';
import type { SiteInfo } from '@/contract/site-info';
import { MemoryRouter } from '@/lib/router';
import { SiteContext } from '@/lib/site-context';
import { theme } from '@/lib/theme';

/** The one site of a server without a site profile, on the sandbox. */
export const TEST_SITE: SiteInfo = {
  id: 'main',
  name: 'Sandbox',
  mode: 'sandbox',
  siteId: '1001',
  currencies: ['aud', 'cad', 'eur', 'gbp', 'nzd', 'usd'],
  decimals: 2,
};

/**
 * Renders with the app's providers: Mantine (no transitions), a fresh QueryClient without retries, a
 * router, and the site the page works on (one site without a profile, unless `site` says otherwise).
 * A test of what the app's own retries do asks for the app's client with `appQueryClient`.
 */
export function render(
  ui: ReactElement,
  {
    route = '/',
    site = TEST_SITE,
    me = { kind: 'demo' },
    appQueryClient = false,
    ...options
  }: RenderOptions & { route?: string; site?: SiteInfo; me?: Me; appQueryClient?: boolean } = {},
) {
  const queryClient = appQueryClient
    ? createQueryClient()
    : new QueryClient({ defaultOptions: { queries: { retry: false }, mutations: { retry: false } } });
  const Wrapper = ({ children }: { children: ReactNode }) => (
    <MantineProvider theme={{ ...theme, components: { Transition: { defaultProps: { duration: 0 } } } }} env="test">
      <QueryClientProvider client={queryClient}>
        <SiteContext.Provider
          value={{ site, sites: [site], many: false, me, onNotSignedIn: () => undefined, onMeChanged: () => undefined }}
        >
          <MemoryRouter initialEntries={[route]}>{children}</MemoryRouter>
        </SiteContext.Provider>
      </QueryClientProvider>
    </MantineProvider>
  );
  return { queryClient, ...rtlRender(ui, { wrapper: Wrapper, ...options }) };
}
