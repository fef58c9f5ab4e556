/**
 * A person signed in with no role on any site yet (just invited, or every grant taken away): what to do,
 * and the way out.
 */
import { Button, Center, Group, Stack, Text, Title } from '@mantine/core';
import type { Me } from '@/contract/access';
import { signOut } from './sign-out';

export function NoSites({ me }: { me: Me }) {
  const name = me.kind === 'person' ? me.displayName : '';
  return (
    <Center mih="100vh" p="md">
      <Stack maw={560}>
        <Title order={1}>No sites for you yet</Title>
        <Text>
          You are signed in{name ? ` as ${name}` : ''}, but you have no role on any site of this server. An owner of site-admin gives people
          their roles on the People page: ask one to give you yours, then reload this page.
        </Text>
        <Group>
          <Button onClick={() => window.location.reload()}>Reload</Button>
          <Button variant="default" onClick={() => void signOut()}>
            Sign out
          </Button>
        </Group>
      </Stack>
    </Center>
  );
}
