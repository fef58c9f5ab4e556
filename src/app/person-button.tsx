/**
 * The header's button naming who is signed in: their initials on a phone, their name beside them on a
 * wider screen. Light, on the first page; the person's menu (person-menu.tsx) opens from it once loaded.
 */
import { Button, Text } from '@mantine/core';
import type { ComponentPropsWithRef } from 'react';
import type { Me } from '@/contract/access';
import classes from './person-button.module.css';

type PersonButtonProps = { me: Extract<Me, { kind: 'person' }> } & Omit<ComponentPropsWithRef<'button'>, 'color' | 'style' | 'children'>;

/** Up to two initials of a name, for the avatar. */
export function initialsOf(name: string): string {
  const words = name.trim().split(/\s+/u).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.map((word) => [...(word ?? '')][0]?.toUpperCase() ?? '').join('');
}

/**
 * The colours an avatar's initials may take (Mantine's light variants, as its Avatar uses), one per person
 * by their name. A span of our own rather than Mantine's Avatar: the Avatar cost the first page 1.1 KB of
 * its 130 KB (gzip, measured with the bench's bundle section), for a circle with two letters.
 */
const INITIALS_COLOURS = ['blue', 'cyan', 'grape', 'green', 'indigo', 'orange', 'pink', 'red', 'teal', 'violet'] as const;

export function initialsColour(name: string): (typeof INITIALS_COLOURS)[number] {
  let hash = 0;
  for (const char of name) hash = (hash * 31 + (char.codePointAt(0) ?? 0)) >>> 0;
  return INITIALS_COLOURS[hash % INITIALS_COLOURS.length] ?? 'blue';
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
      <span
        className={classes.initials}
        aria-hidden="true"
        style={{
          ['--initials-bg' as string]: `var(--mantine-color-${initialsColour(me.displayName)}-light)`,
          ['--initials-fg' as string]: `var(--mantine-color-${initialsColour(me.displayName)}-light-color)`,
        }}
      >
        {initialsOf(me.displayName)}
      </span>{' '}
      <Text span size="sm" truncate maw={160} visibleFrom="sm">
        {me.displayName}
      </Text>
    </Button>
  );
}
