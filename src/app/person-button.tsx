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
      aria-label={`Signed in as ${me.displayName}. Your account and sign-out`}
      leftSection={
        <Avatar size={22} radius="xl" color="initials" name={me.displayName} aria-hidden="true">
          {initialsOf(me.displayName)}
        </Avatar>
      }
      rightSection={<span aria-hidden="true">▾</span>}
    >
      <Text span size="sm" truncate maw={160} visibleFrom="sm">
        {me.displayName}
      </Text>
    </Button>
  );
}
