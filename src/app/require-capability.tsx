/**
 * A page that needs a capability on the site (creating products): for a person without it, the page says
 * so plainly, with what they may do there, rather than opening a form whose every send would be refused.
 */
import { Button, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { refusalMessage, type Capability } from '@/contract/access';
import { capabilitiesOf } from '@/contract/site-info';
import { pathTo } from '@/lib/paths';
import { Link } from '@/lib/router';
import { useSite } from '@/lib/site-context';

const TITLES: Record<Capability, string> = {
  lookup: 'You may not look up cases here',
  create: 'You may not create products here',
  export: 'You may not export cases here',
};

export function RequireCapability({ capability, children }: { capability: Capability; children: ReactNode }) {
  const { site } = useSite();
  const held = capabilitiesOf(site);
  if (held.includes(capability)) return children;
  return (
    <Stack align="flex-start" gap="sm" maw={560}>
      <Title order={1}>{TITLES[capability]}</Title>
      <Text>{refusalMessage(site.name, held, capability)}</Text>
      <Text size="sm" c="dimmed">
        An owner of site-admin can give you another role on the People page.
      </Text>
      {held.includes('lookup') ? (
        <Button component={Link} to={pathTo('cases')}>
          Go to Cases
        </Button>
      ) : null}
    </Stack>
  );
}

/**
 * The People page, for owners of every site only: anyone else is told so plainly (the server would refuse
 * every call of the page with 403 anyway).
 */
export function RequirePeopleManager({ children }: { children: ReactNode }) {
  const { me } = useSite();
  if (me.kind === 'person' && me.managesPeople) return children;
  if (me.kind === 'demo') {
    return (
      <Stack align="flex-start" gap="sm" maw={560}>
        <Title order={1}>People</Title>
        <Text>
          Nobody signs in to this local demo, so there are no people to manage. Add the first owner with <code>npm run people -- add</code>;
          from then on everyone signs in as themselves, and owners manage people here.
        </Text>
      </Stack>
    );
  }
  return (
    <Stack align="flex-start" gap="sm" maw={560}>
      <Title order={1}>You may not manage people</Title>
      <Text>Only an owner of every site may invite people, change their roles or disable them. Ask one of them for what you need.</Text>
      <Button component={Link} to={pathTo('account')} variant="default">
        Go to your account
      </Button>
    </Stack>
  );
}
