/**
 * The header's site switcher, shown when the server has several sites: the current site's name and
 * whether it is live or the sandbox, and the other sites to switch to. A switch opens the other site's
 * address, so nothing of this site (a draft, a cached case) goes with it.
 */
import { Menu, Text } from '@mantine/core';
import { capabilitiesOf, type SiteInfo } from '@/contract/site-info';
import { useLocation } from '@/lib/router';
import { siteHref } from '@/lib/site-context';
import { SiteButton } from './site-button';
import { useTakeFocus } from './take-focus';

/**
 * The same kind of page on the other site: its list, not this site's case or product; Cases where the
 * person may not create products.
 */
function samePageOn(pathname: string, other: SiteInfo): string {
  if (pathname.startsWith('/products') && !capabilitiesOf(other).includes('create')) return '/cases';
  if (pathname.startsWith('/products/new')) return '/products/new';
  if (pathname.startsWith('/products')) return '/products';
  if (pathname.startsWith('/settings')) return '/settings';
  return '/cases';
}

/**
 * `defaultOpened`: the button was pressed before the menu had loaded; `takeFocus`: it had the keyboard's
 * focus, which stays on this button (a new element) rather than falling back to the page.
 */
export function SiteSwitcher({
  site,
  sites,
  defaultOpened = false,
  takeFocus = false,
}: {
  site: SiteInfo;
  sites: readonly SiteInfo[];
  defaultOpened?: boolean;
  takeFocus?: boolean;
}) {
  const { pathname } = useLocation();
  const target = useTakeFocus(takeFocus);
  return (
    <Menu position="bottom-end" withinPortal defaultOpened={defaultOpened}>
      <Menu.Target>
        <SiteButton site={site} ref={target} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>Switch site</Menu.Label>
        {sites.map((other) => (
          <Menu.Item
            key={other.id}
            component="a"
            href={siteHref(other.id, samePageOn(pathname, other), true)}
            aria-current={other.id === site.id ? 'true' : undefined}
            leftSection={
              <span aria-hidden="true" style={{ visibility: other.id === site.id ? 'visible' : 'hidden' }}>
                ✓
              </span>
            }
            rightSection={
              <Text span size="xs" c={other.mode === 'sandbox' ? 'teal' : 'orange'}>
                {other.mode === 'sandbox' ? 'Sandbox' : `Live · ${other.host ?? ''}`}
              </Text>
            }
          >
            {other.name}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
