/**
 * A keyboard pass of a screen, as a person with no mouse makes it: Tab from the top of the page to its end,
 * and at every stop, that the focus shows. A stop shows it when it, the element around it or one beside it
 * (where a custom control draws its ring) looks different from how it looked before the pass, with no
 * focus on the page; a ring drawn as an outline must also stand out 3:1 against what is behind it (WCAG
 * 1.4.11). Nothing is clicked or typed, so the screen is as it was, bar the focus.
 */
import type { Page } from '@playwright/test';

/** The most Tab presses of a pass: far more than any screen has stops, a guard against a loop. */
const MOST_PRESSES = 400;
/** Presses between two looks at whether the pass is over. */
const BATCH = 10;

interface PassState {
  looks: WeakMap<Element, string>;
  /** What each stop showed: its name, and what is wrong with its focus, if anything. */
  problems: string[];
  first?: Element;
  ended: boolean;
  stop: () => void;
}

/**
 * Notes how the page's elements look unfocused, puts the focus before the first stop, and from then on
 * looks at every element that takes the focus, as it takes it.
 */
function prepare() {
  const start = document.createElement('div');
  start.tabIndex = -1;
  document.body.prepend(start);
  // First, so that nothing is focused while the unfocused looks are noted; and what was focused shown as it
  // is once its ring has faded out (a field's border changes colour in a transition).
  start.focus();
  const settle = () => {
    for (const animation of document.getAnimations()) if (animation instanceof CSSTransition) animation.finish();
  };
  settle();

  const look = (element: Element, own: boolean): string => {
    const style = getComputedStyle(element);
    const parts = [
      style.outlineStyle === 'none' ? 'none' : `${style.outlineStyle} ${style.outlineWidth} ${style.outlineColor}`,
      style.boxShadow,
      style.borderTopColor,
      style.borderBottomColor,
      style.backgroundColor,
      style.color,
      style.textDecorationLine,
    ];
    // A stop of its own may show itself by coming into view (a skip link).
    if (own) parts.push(style.opacity, style.transform, style.clipPath, style.top, style.left, style.position);
    return parts.join('|');
  };
  // Where a control draws its ring: on itself, a box around it (up to three levels: a field of tags is an
  // input in a group in the box), or the element beside it (a hidden radio's label).
  const related = (element: Element) =>
    [
      element.parentElement,
      element.parentElement?.parentElement,
      element.parentElement?.parentElement?.parentElement,
      element.nextElementSibling,
      element.previousElementSibling,
    ].filter((e): e is Element => e instanceof Element);
  const looks = new WeakMap<Element, string>();
  const focusable = 'a[href], button, input, select, textarea, summary, [tabindex], [contenteditable="true"]';
  for (const element of document.querySelectorAll(focusable)) {
    looks.set(element, look(element, true));
    for (const near of related(element)) if (!looks.has(near)) looks.set(near, look(near, false));
  }

  const rgba = (color: string): number[] => {
    const match = /rgba?\(([^)]+)\)/.exec(color);
    if (!match?.[1]) return [0, 0, 0, 0];
    const [r = 0, g = 0, b = 0, a = 1] = match[1]
      .split(/[ ,/]+/)
      .filter(Boolean)
      .map(Number);
    return [r, g, b, a];
  };
  const luminance = ([r = 0, g = 0, b = 0]: number[]) => {
    const [R = 0, G = 0, B = 0] = [r, g, b].map((v) => {
      const c = v / 255;
      return c <= 0.03928 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4;
    });
    return 0.2126 * R + 0.7152 * G + 0.0722 * B;
  };
  /** The colour behind a point of `from`: its background and its ancestors', laid over each other. */
  const backdrop = (from: Element | null): number[] => {
    const layers: number[][] = [];
    for (let at = from; at; at = at.parentElement) {
      const color = rgba(getComputedStyle(at).backgroundColor);
      if (color[3] === 0) continue;
      layers.push(color);
      if (color[3] === 1) break;
    }
    let [R, G, B] = [255, 255, 255];
    for (const [r = 0, g = 0, b = 0, a = 1] of layers.reverse())
      [R, G, B] = [r * a + R * (1 - a), g * a + G * (1 - a), b * a + B * (1 - a)];
    return [R, G, B];
  };

  const state: PassState = { looks, problems: [], ended: false, stop: () => document.removeEventListener('focusin', onFocus, true) };
  function onFocus(event: FocusEvent) {
    const element = event.target;
    if (state.ended || !(element instanceof Element) || element === start) return;
    // Round again to the first stop (or a dialog that keeps the focus in itself): the pass is over.
    if (state.first === element) {
      state.ended = true;
      return;
    }
    state.first ??= element;
    start.remove();
    // A transition (a field's border, say) shown at its end, as the person sees it a moment later.
    settle();
    const changed = (node: Element, own: boolean) => {
      const before = looks.get(node);
      const now = look(node, own);
      // An element that came after the pass began (a cell's editor, say) counts if it draws a ring.
      return before === undefined ? own && /^(solid|dotted|dashed|double|auto)/.test(now) : before !== now;
    };
    const labelled =
      element instanceof HTMLInputElement || element instanceof HTMLTextAreaElement ? element.labels?.[0]?.textContent : null;
    const label = (element.getAttribute('aria-label') ?? labelled ?? element.textContent ?? '').replace(/\s+/g, ' ').trim().slice(0, 60);
    const type = element.getAttribute('type');
    const name = `${element.tagName.toLowerCase()}${type ? `[type=${type}]` : ''} "${label}"`;
    if (!(changed(element, true) || related(element).some((near) => changed(near, false))))
      state.problems.push(`${name}: no visible focus`);
    const style = getComputedStyle(element);
    // The browser's own ring (style auto) is drawn in two tones, to be seen on any background.
    if (style.outlineStyle !== 'none' && style.outlineStyle !== 'auto' && parseFloat(style.outlineWidth) > 0) {
      const ring = rgba(style.outlineColor);
      const behind = backdrop(parseFloat(style.outlineOffset) < 0 ? element : element.parentElement);
      const [light = 0, dark = 0] = [luminance(ring), luminance(behind)].sort((x, y) => y - x);
      const contrast = Math.round(((light + 0.05) / (dark + 0.05)) * 100) / 100;
      if (contrast < 3) state.problems.push(`${name}: focus ring ${contrast}:1 against what is behind it`);
    }
  }
  document.addEventListener('focusin', onFocus, true);
  Object.assign(window, { __keyboardPass: state });
}

/** Whether the pass is over: back at its first stop, or out of the page. */
function isOver(): boolean {
  const state = (window as unknown as { __keyboardPass: PassState }).__keyboardPass;
  const active = document.activeElement;
  return state.ended || !active || active === document.body || active === document.documentElement;
}

function finish(): string[] {
  const state = (window as unknown as { __keyboardPass: PassState }).__keyboardPass;
  state.stop();
  return [...new Set(state.problems)];
}

/** The stops of a pass that do not show the focus, and the rings under 3:1; empty when every stop is fine. */
export async function keyboardPass(page: Page): Promise<string[]> {
  // The pointer out of the way, so that no hover changes a look.
  await page.mouse.move(0, 0);
  await page.evaluate(prepare);
  for (let pressed = 0; pressed < MOST_PRESSES; pressed += BATCH) {
    for (let i = 0; i < BATCH; i++) await page.keyboard.press('Tab');
    if (await page.evaluate(isOver)) break;
  }
  return page.evaluate(finish);
}
