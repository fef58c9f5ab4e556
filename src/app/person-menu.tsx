/**
 * The header's menu of the person signed in: who they are, their account, the People page for owners,
 * and signing out (here, or on every device). A chunk of its own, like the site switcher's menu.
 */
import { Menu, Text } from '@mantine/core';
import type { Me } from '@/contract/access';
import { pathTo } from '@/lib/paths';
import { Link } from '@/lib/router';
import { PersonButton } from './person-button';
import { signOut } from './sign-out';
import { useTakeFocus } from './take-focus';

export function PersonMenu({
  me,
  defaultOpened = false,
  takeFocus = false,
}: {
  me: Extract<Me, { kind: 'person' }>;
  defaultOpened?: boolean;
  takeFocus?: boolean;
}) {
  const target = useTakeFocus(takeFocus);
  return (
    <Menu position="bottom-end" withinPortal defaultOpened={defaultOpened}>
      <Menu.Target>
        <PersonButton me={me} ref={target} />
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>
          <Text size="sm" fw={600} c="var(--mantine-color-text)">
            {me.displayName}
          </Text>
          <Text size="xs">{me.email}</Text>
        </Menu.Label>
        <Menu.Item component={Link} to={pathTo('account')}>
          Your account
        </Menu.Item>
        {me.managesPeople ? (
          <Menu.Item component={Link} to={pathTo('people')}>
            People
          </Menu.Item>
        ) : null}
        <Menu.Divider />
        <Menu.Item onClick={() => void signOut()}>Sign out</Menu.Item>
        <Menu.Item onClick={() => void signOut({ everywhere: true })}>Sign out everywhere</Menu.Item>
      </Menu.Dropdown>
    </Menu>
  );
}
