/**
 * The header's button naming the current site when the server has several: its name and whether it is
 * live or the sandbox. The site switcher's menu opens from it; the button itself is light, so that it is
 * on the first page while the menu (Mantine's Menu and floating-ui) loads after it.
 */
import { Button, Text } from '@mantine/core';
import type { ComponentPropsWithRef } from 'react';
import type { SiteInfo } from '@/contract/site-info';

type SiteButtonProps = { site: SiteInfo } & Omit<ComponentPropsWithRef<'button'>, 'color' | 'style' | 'children'>;

export function SiteButton({ site, ...props }: SiteButtonProps) {
  return (
    <Button
      {...props}
      variant="filled"
      color={site.mode === 'sandbox' ? 'teal.9' : 'orange.9'}
      size="compact-sm"
      data-mode={site.mode}
      // Starts with what it shows (the name, then Sandbox or Live where there is room), for voice control.
      aria-label={`${site.name} ${site.mode === 'sandbox' ? 'Sandbox' : `Live at ${site.host ?? ''}`}, the current site: switch site`}
      rightSection={<span aria-hidden="true">▾</span>}
    >
      {/* The name and the mode in one line of text with a space between (a space between two flex items
          is not drawn), as the name reads them: "Harbour Linen Sandbox", not "Harbour LinenSandbox". */}
      <Text span size="sm" fw={600} truncate maw={{ base: 120, sm: 260 }}>
        {site.name}
      </Text>{' '}
      <Text span size="xs" ml={6} visibleFrom="xs">
        {site.mode === 'sandbox' ? 'Sandbox' : 'Live'}
      </Text>
    </Button>
  );
}
