/**
 * The header's button naming who is signed in: their initials on a phone, their name beside them on a
 * wider screen. Light, on the first page; the person's menu (person-menu.tsx) opens from it once loaded.
 */
import { Avatar, Button, Text } from '@mantine/core';
import type { ComponentPropsWithRef } from 'react';
import type { Me } from '@/contract/access';

type PersonButtonProps = { me: Extract<Me, { kind: 'person' }> } & Omit<ComponentPropsWithRef<'button'>, 'color' | 'style' | 'children'>;

/** Up to two initials of a name, for the avatar. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/u).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.map((word) => [...(word ?? '')][0]?.toUpperCase() ?? '').join('');
}

export function PersonButton({ me, ...props }: PersonButtonProps) {
  return (
    <Button
      {...props}
      variant="subtle"
      color="gray"
      size="compact-sm"
      // The name starts with what the button shows (initials, then the name where there is room), so that
      // a person who says what they see (voice control) reaches it.
      aria-label={`${initialsOf(me.displayName)} ${me.displayName}, signed in: your account and sign-out`}
      rightSection={<span aria-hidden="true">▾</span>}
    >
      {/* The initials and the name in one line of text with a space between, as the name reads them
          ("OM Olivia Marsh"; in two sections of the button they would run together, "OMOlivia Marsh"). */}
      <Avatar size={22} radius="xl" color="initials" name={me.displayName} aria-hidden="true" me={{ base: 0, sm: 'xs' }}>
        {initialsOf(me.displayName)}
      </Avatar>{' '}
      <Text span size="sm" truncate maw={160} visibleFrom="sm">
        {me.displayName}
      </Text>
    </Button>
  );
}
