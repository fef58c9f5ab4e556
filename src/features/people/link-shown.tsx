/**
 * A one-time link just made (an invitation or a reset), shown this once for the owner to copy and send
 * to the person: the server keeps only its hash, so it cannot be shown again.
 */
import { Alert, Button, CopyButton, Group, Stack, Text, TextInput } from '@mantine/core';
import type { LinkView } from '@/contract/people';
import { DateTime } from '@/lib/date-time';

export function LinkShown({ link, who, purpose }: { link: LinkView; who: string; purpose: 'invitation' | 'reset' }) {
  return (
    <Alert color="teal" title={purpose === 'invitation' ? `Invitation for ${who}` : `New link for ${who}`} role="status">
      <Stack gap="xs">
        <Text size="sm">
          Copy this link now and send it to them yourself (by e-mail or chat): it is shown only once. It works once, until{' '}
          <DateTime date={new Date(link.expiresAt)} /> (72 hours).
        </Text>
        <Group gap="xs" wrap="nowrap" align="flex-end">
          <TextInput
            label="One-time link"
            value={link.url}
            readOnly
            onFocus={(event) => event.currentTarget.select()}
            style={{ flex: 1, minWidth: 0 }}
          />
          <CopyButton value={link.url}>
            {({ copied, copy }) => (
              <Button onClick={copy} color={copied ? 'teal' : undefined} variant={copied ? 'filled' : 'default'}>
                {copied ? 'Copied' : 'Copy link'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
    </Alert>
  );
}
