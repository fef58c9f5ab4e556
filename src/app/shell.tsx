import { Anchor, Badge, Box, Burger, Group, NavLink } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { useState, type ReactNode } from 'react';
import type { Capability, Me } from '@/contract/access';
import { capabilitiesOf, type SiteInfo } from '@/contract/site-info';
import { lazyModule, useLazyModule, type LazyModule } from '@/lib/lazy-module';
import { matchPathName, pathTo, type PathName } from '@/lib/paths';
import { Link, useLocation } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { ModeBadge, ModeNote } from './mode-badge';
import { usePageUp } from './page-up';
import { PersonButton } from './person-button';
import { SiteButton } from './site-button';
import classes from './shell.module.css';

// The switcher's menu is a chunk of its own (Mantine's Menu and Popover, floating-ui): a server with one
// site never loads it, and with several it loads after the first paint.
const siteSwitcher = lazyModule(() => import('./site-switcher'));
// The person's menu likewise: the button is here, the menu loads after the first paint.
const personMenu = lazyModule(() => import('./person-menu'));
// The count of new cases beside Cases: loaded, and asked for, once the page is up.
const newCases = lazyModule(() => import('./new-cases-badge'));
// The Approvals entry likewise: whether it shows and its count are two questions to the server, asked then.
const approvals = lazyModule(() => import('./approvals-nav'));

/** Cases' label, with the count of new cases once the page is up and its module is here. */
function CasesLabel({ label, site, active }: { label: string; site: string; active: boolean }) {
  const { module } = useLazyModule(newCases, usePageUp());
  return module ? <module.CasesWithNew label={label} site={site} active={active} /> : label;
}

/** The Approvals entry, once the page is up and its module is here (and only for whom it is of use). */
function ApprovalsSlot({ sites, onClick }: { sites: readonly SiteInfo[]; onClick: () => void }) {
  const { module } = useLazyModule(approvals, usePageUp());
  if (!module) return null;
  return (
    <module.ApprovalsEntry
      sites={sites}
      link={(labelled) => (
        <MainNavLink
          page="approvals"
          pages={['approvals', 'approval']}
          label="Approvals"
          description="Writes to approve"
          onClick={onClick}
          labelled={labelled}
        />
      )}
    />
  );
}

/**
 * A header menu that loads after the first paint (the site switcher's, the person's): until its module is
 * here, the same button stands in its place. Pressed, it opens the menu once loaded (and tries again after
 * a failure); focused, the keyboard's focus stays on the button that takes its place.
 */
function useEarlyMenu<M>(menu: LazyModule<M>) {
  const { module, load } = useLazyModule(menu, true);
  const [pressedEarly, setPressedEarly] = useState(false);
  const [focusedEarly, setFocusedEarly] = useState(false);
  const standIn = {
    'aria-haspopup': 'menu',
    'aria-expanded': false,
    onFocus: () => setFocusedEarly(true),
    onBlur: () => setFocusedEarly(false),
    onClick: () => {
      setPressedEarly(true);
      load();
    },
  } as const;
  return { module, standIn, menuProps: { defaultOpened: pressedEarly, takeFocus: focusedEarly } };
}

function PersonSlot({ me }: { me: Extract<Me, { kind: 'person' }> }) {
  const { module, standIn, menuProps } = useEarlyMenu(personMenu);
  if (module) return <module.PersonMenu me={me} {...menuProps} />;
  return <PersonButton me={me} {...standIn} />;
}

/** The local demo (loopback, nobody in the database): said in the header, so nobody mistakes it for a deployment. */
function DemoMark() {
  return (
    <Badge
      variant="outline"
      color="gray"
      data-testid="demo-mark"
      title="Anyone who reaches this server uses it; add a person to require sign-in"
    >
      {/* On a phone it reads "Demo" on screen; assistive technology reads the whole mark at every width. */}
      <span className={classes.demoLong}>No sign-in: local demo</span>
      <span className={classes.demoShort} aria-hidden="true">
        Demo
      </span>
    </Badge>
  );
}

function SiteSwitcherSlot({ site, sites }: { site: SiteInfo; sites: readonly SiteInfo[] }) {
  const { module, standIn, menuProps } = useEarlyMenu(siteSwitcher);
  if (module) return <module.SiteSwitcher site={site} sites={sites} {...menuProps} />;
  return <SiteButton site={site} {...standIn} />;
}

/**
 * The navigation, and the pages each entry stands for: it is highlighted on any of them (a case's own
 * address is under Cases, a created product under Created products); on an address that is no page (404),
 * none is.
 */
const NAV = [
  { page: 'cases', pages: ['cases', 'inbox', 'case'], label: 'Cases', description: 'Look up a form submission', needs: 'lookup' },
  { page: 'catalogue', pages: ['catalogue', 'catalogueProduct'], label: 'Catalogue', description: 'The site’s products', needs: 'create' },
  { page: 'newProduct', pages: ['newProduct'], label: 'New product', description: 'Create a catalogue product', needs: 'create' },
  {
    page: 'importProducts',
    pages: ['importProducts', 'editImported'],
    label: 'Import products',
    description: 'From a spreadsheet',
    needs: 'create',
  },
  {
    page: 'products',
    pages: ['products', 'createdProduct'],
    label: 'Created products',
    description: 'By the whole team',
    needs: 'create',
  },
  { page: 'settings', pages: ['settings'], label: 'Settings', description: 'This site’s profile', needs: 'lookup' },
  { page: 'activity', pages: ['activity'], label: 'Activity', description: 'Who did what, when', needs: 'lookup' },
] as const satisfies readonly { page: PathName; pages: readonly PathName[]; label: string; description: string; needs: Capability }[];

/** The pages of the navigation: none takes params. */
type NavPage = (typeof NAV)[number]['page'] | 'approvals' | 'people';

interface NavLinkProps {
  page: NavPage;
  pages: readonly PathName[];
  label: string;
  description: string;
  onClick: () => void;
  /** The label with more in it (Cases' count of new cases), told whether the entry is the current page. */
  labelled?: (active: boolean) => ReactNode;
}

function MainNavLink({ page, pages, label, description, onClick, labelled }: NavLinkProps) {
  const { pathname } = useLocation();
  const active = pages.some((name) => matchPathName(name, pathname) !== null);
  return (
    <NavLink
      component={Link}
      to={pathTo(page)}
      label={labelled ? labelled(active) : label}
      description={description}
      onClick={onClick}
      active={active}
      aria-current={active ? 'page' : undefined}
      variant="filled"
    />
  );
}

export function AppShellLayout({ children }: { children: ReactNode }) {
  const [opened, { toggle, close }] = useDisclosure(false);
  const { site, sites, many, me } = useSite();
  const can = capabilitiesOf(site);
  // Counted for the forms of the site's profile, for whoever may look up its cases (the server refuses the rest).
  const counted = Object.keys(site.forms ?? {}).length > 0;
  return (
    <div className={classes.shell}>
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      {/* right-scroll-bar-position: a modal's scroll lock (react-remove-scroll) keeps this fixed header from shifting. */}
      <header className={`${classes.header} right-scroll-bar-position`}>
        <Group h="100%" px={{ base: 'xs', xs: 'md' }} gap="xs" justify="space-between" wrap="nowrap">
          <Group gap="xs" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            {/* With a person's button in the header, a phone has no room for the name too: its title says it. */}
            <Anchor
              component={Link}
              to={pathTo('home')}
              underline="never"
              c="inherit"
              fw={700}
              fz="lg"
              className={classes.brand}
              visibleFrom={me.kind === 'person' ? 'xs' : undefined}
            >
              site-admin
            </Anchor>
          </Group>
          <Group gap="xs" wrap="nowrap">
            {many ? <SiteSwitcherSlot site={site} sites={sites} /> : <ModeBadge site={site} />}
            {me.kind === 'demo' ? <DemoMark /> : null}
            <ColorSchemeToggle />
            {me.kind === 'person' ? <PersonSlot me={me} /> : null}
          </Group>
        </Group>
      </header>
      <nav className={classes.navbar} aria-label="Main" data-opened={opened || undefined}>
        {NAV.filter((item) => can.includes(item.needs)).map(({ needs: _needs, ...item }) => (
          <MainNavLink
            key={item.page}
            {...item}
            onClick={close}
            labelled={
              item.page === 'cases' && counted ? (active) => <CasesLabel label={item.label} site={site.id} active={active} /> : undefined
            }
          />
        ))}
        <ApprovalsSlot sites={sites} onClick={close} />
        {me.kind === 'person' && me.managesPeople ? (
          <MainNavLink page="people" pages={['people']} label="People" description="Who may do what" onClick={close} />
        ) : null}
        <Box mt="auto">
          <ModeNote site={site} many={many} />
        </Box>
      </nav>
      <main className={classes.main} id="main" tabIndex={-1}>
        {children}
      </main>
    </div>
  );
}
