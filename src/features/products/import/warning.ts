/**
 * A yellow alert's title in the page's text colour: Mantine's yellow title on its light background is
 * below AA contrast (2.7:1).
 */
export const WARNING_STYLES = { title: { color: 'var(--mantine-color-text)' } } as const;
