import { Anchor, AppShell, Burger, Group, NavLink } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import type { ReactNode } from 'react';
import { pathTo, type PathName } from '@/lib/paths';
import { Link, useIsActive } from '@/lib/router';
import { useSite } from '@/lib/site-context';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { ModeBadge } from './mode-badge';
import { SiteSwitcher } from './site-switcher';
import classes from './shell.module.css';

const NAV = [
  // Cases stays highlighted on a case's own address (/cases/3/48217).
  { page: 'cases', label: 'Cases', description: 'Look up a form submission', end: false },
  { page: 'newProduct', label: 'New product', description: 'Create a catalogue product', end: true },
  { page: 'importProducts', label: 'Import products', description: 'From a spreadsheet', end: true },
  { page: 'products', label: 'Created products', description: 'Made from this browser', end: true },
  { page: 'settings', label: 'Settings', description: 'This site’s profile', end: true },
] as const satisfies readonly { page: PathName; label: string; description: string; end: boolean }[];

type NavPage = (typeof NAV)[number]['page'];

function MainNavLink({ page, label, description, onClick, end }: { page: NavPage; label: string; description: string; onClick: () => void; end: boolean }) {
  const active = useIsActive(page, end);
  return (
    <NavLink
      component={Link}
      to={pathTo(page)}
      label={label}
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
  const { site, sites, many } = useSite();
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Anchor component={Link} to={pathTo('home')} underline="never" c="inherit" fw={700} fz="lg">
              site-admin
            </Anchor>
          </Group>
          <Group gap="sm" wrap="nowrap">
            {many ? <SiteSwitcher site={site} sites={sites} /> : <ModeBadge site={site} />}
            <ColorSchemeToggle />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        {NAV.map((item) => (
          <MainNavLink key={item.page} page={item.page} label={item.label} description={item.description} end={item.end} onClick={close} />
        ))}
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1}>
        {children}
      </AppShell.Main>
    </AppShell>
  );
}
