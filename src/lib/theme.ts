import { createTheme } from '@mantine/core';

export const theme = createTheme({
  primaryColor: 'blue',
  // Darker shades in light mode keep text on filled buttons at AA contrast.
  primaryShade: { light: 7, dark: 8 },
  defaultRadius: 'md',
  fontFamily:
    'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
});
