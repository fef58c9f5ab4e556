import { Anchor, AppShell, Burger, Group, NavLink, Text } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Suspense } from 'react';
import { Link, NavLink as RouterNavLink, Outlet, useNavigation } from 'react-router';
import { ColorSchemeToggle } from './color-scheme-toggle';
import { ModeBadge } from './mode-badge';
import classes from './shell.module.css';

const NAV = [
  { to: '/cases', label: 'Cases', description: 'Look up a form submission' },
  { to: '/products/new', label: 'New product', description: 'Create a catalogue product' },
  { to: '/products', label: 'Created products', description: 'Made from this browser' },
] as const;

export function AppShellLayout() {
  const [opened, { toggle, close }] = useDisclosure(false);
  const navigation = useNavigation();
  return (
    <AppShell header={{ height: 56 }} navbar={{ width: 240, breakpoint: 'sm', collapsed: { mobile: !opened } }} padding="md">
      <a href="#main" className={classes.skipLink}>
        Skip to content
      </a>
      <AppShell.Header>
        <Group h="100%" px="md" justify="space-between" wrap="nowrap">
          <Group gap="sm" wrap="nowrap">
            <Burger opened={opened} onClick={toggle} hiddenFrom="sm" size="sm" aria-label="Toggle navigation" />
            <Anchor component={Link} to="/" underline="never" c="inherit" fw={700} fz="lg">
              site-admin
            </Anchor>
          </Group>
          <Group gap="sm" wrap="nowrap">
            <ModeBadge />
            <ColorSchemeToggle />
          </Group>
        </Group>
      </AppShell.Header>
      <AppShell.Navbar p="xs" aria-label="Main">
        {NAV.map((item) => (
          <NavLink
            key={item.to}
            component={RouterNavLink}
            to={item.to}
            label={item.label}
            description={item.description}
            onClick={close}
            end
            variant="filled"
          />
        ))}
      </AppShell.Navbar>
      <AppShell.Main id="main" tabIndex={-1} aria-busy={navigation.state === 'loading'}>
        <Suspense fallback={<Text c="dimmed">Loading…</Text>}>
          <Outlet />
        </Suspense>
      </AppShell.Main>
    </AppShell>
  );
}
