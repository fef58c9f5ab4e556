import {
  colorsTuple,
  createTheme,
  DEFAULT_THEME,
  defaultVariantColorsResolver,
  type CSSVariablesResolver,
  type MantineColorsTuple,
  type VariantColorsResolver,
} from '@mantine/core';
import focus from './focus.module.css';

/**
 * A palette whose darkest shade is darker still. Shade 9 is what these colours write text in, and fill
 * under white text, in the light scheme; Mantine's is under 4.5:1 against white or its own light shades
 * (teal 9 on teal 1 4.32:1, orange 9 under white 4.29:1 and on orange 0 3.95:1, green 9 on white 4.36:1,
 * red 9 on red 2 3.75:1).
 * Each of these is at least 4.6:1 against white and shades 0 to 2.
 */
const withDarkestShade = (palette: MantineColorsTuple, shade9: string) => colorsTuple([...palette.slice(0, 9), shade9]);

/**
 * Filled buttons darken when hovered. Mantine's hover of a shade-9 fill is the lighter shade 8, under 4.5:1
 * beneath white text for most colours (white on teal 8 is 3.94:1).
 */
const variantColorResolver: VariantColorsResolver = (input) => {
  const colors = defaultVariantColorsResolver(input);
  if (input.variant !== 'filled') return colors;
  return { ...colors, hover: `color-mix(in srgb, ${colors.background} 85%, black)` };
};

export const theme = createTheme({
  primaryColor: 'blue',
  // Darker shades keep white text on filled buttons at WCAG AA contrast (4.5:1).
  primaryShade: { light: 9, dark: 9 },
  colors: {
    teal: withDarkestShade(DEFAULT_THEME.colors.teal, '#077050'),
    orange: withDarkestShade(DEFAULT_THEME.colors.orange, '#ab390c'),
    green: withDarkestShade(DEFAULT_THEME.colors.green, '#237133'),
    red: withDarkestShade(DEFAULT_THEME.colors.red, '#af2525'),
  },
  variantColorResolver,
  defaultRadius: 'md',
  fontFamily: 'Inter, system-ui, -apple-system, "Segoe UI", Roboto, "Helvetica Neue", Arial, "Noto Sans", sans-serif',
  fontFamilyMonospace: 'ui-monospace, SFMono-Regular, Menlo, Consolas, "Liberation Mono", monospace',
  headings: { fontWeight: '650' },
  cursorType: 'pointer',
  // Plain objects rather than Modal.extend() and Menu.extend(): the theme is on the first page, which loads
  // neither component.
  components: {
    // Mantine's close button has no name of its own.
    Modal: { defaultProps: { closeButtonProps: { 'aria-label': 'Close' } } },
    // The focus placeholder is an empty role=presentation child, where a menu may hold only items; without
    // it, opening a menu focuses its first item.
    Menu: { defaultProps: { withInitialFocusPlaceholder: false } },
    Input: { classNames: { input: focus.input } },
    // Mantine keeps the show/hide button out of the Tab order; a keyboard user needs it as much as anyone.
    PasswordInput: { defaultProps: { visibilityToggleFocusable: true } },
  },
});

/**
 * Secondary ("dimmed"), error and link text with AA contrast on the page background in both schemes, and
 * the focus ring (`--app-focus-ring`, focus.module.css) at 3:1 or more against the page and cards: Mantine
 * draws it in the primary filled colour, blue 9, which is 2.55:1 on the dark page and 2.23:1 on a dark
 * card; blue 4 is 6.27:1 and 5.49:1 there (blue 9 is 6.09:1 on white).
 */
export const cssVariablesResolver: CSSVariablesResolver = (t) => ({
  variables: {},
  light: {
    '--mantine-color-dimmed': t.colors.gray[7],
    '--mantine-color-error': t.colors.red[9],
    '--mantine-color-anchor': t.colors.blue[9],
    '--app-focus-ring': t.colors.blue[9],
  },
  dark: {
    '--mantine-color-dimmed': t.colors.dark[1],
    '--mantine-color-error': t.colors.red[5],
    '--mantine-color-anchor': t.colors.blue[4],
    '--app-focus-ring': t.colors.blue[4],
  },
});
