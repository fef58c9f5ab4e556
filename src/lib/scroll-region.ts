import focus from './focus.module.css';

/**
 * `scrollAreaProps` for a Table.ScrollContainer that may scroll sideways (a phone): the keyboard can
 * reach it and scroll it with the arrow keys, sees that it has, and a screen reader hears its name.
 */
export const scrollRegionProps = (label: string) => ({
  viewportProps: { tabIndex: 0, role: 'region', 'aria-label': label },
  classNames: { viewport: focus.scrollRegion },
});
