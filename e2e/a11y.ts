/**
 * The accessibility check every end-to-end test can share: axe-core with the WCAG 2.0, 2.1 and 2.2
 * A and AA rules, and label in name (WCAG 2.5.3: a control's accessible name contains the text it shows,
 * so a person who says what they see reaches it), which axe counts as experimental and leaves out unless
 * asked. On failure the message lists each rule, its impact and the offending elements.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, type Page } from '@playwright/test';

export const WCAG_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa'];
/** Rules of those criteria that axe runs only when named. */
export const EXTRA_RULES = ['label-content-name-mismatch'];
/**
 * The rules whose outcome depends on colours: all that can change when only the colour scheme does (the
 * page's elements, names and structure stay the same).
 */
export const COLOUR_RULES = ['color-contrast', 'link-in-text-block'];

export interface A11yOptions {
  /** CSS selectors to check; the whole page when left out. */
  include?: string[];
  /** CSS selectors to leave out, e.g. a third-party widget. */
  exclude?: string[];
  /** Only these rules (say, the colour rules again in the other colour scheme); every rule when left out. */
  rules?: readonly string[];
}

export async function a11yViolations(page: Page, { include = [], exclude = [], rules }: A11yOptions = {}) {
  // options() first: it replaces what withTags() sets. Violations described in full, the rest only counted.
  // A rule enabled by name runs beside the tags' rules (axe decides a rule's own setting before the tags).
  const extra = Object.fromEntries(EXTRA_RULES.map((rule) => [rule, { enabled: true }]));
  let builder = new AxeBuilder({ page }).options({ resultTypes: ['violations'], rules: extra });
  builder = rules ? builder.withRules([...rules]) : builder.withTags(WCAG_TAGS);
  for (const selector of include) builder = builder.include(selector);
  for (const selector of exclude) builder = builder.exclude(selector);
  const { violations } = await builder.analyze();
  return violations;
}

/**
 * Fails the test when axe finds a violation, listing each. `soft`: records the failure and goes on (a run
 * of many screens reports them all); `screen` names the screen in the message.
 */
export async function expectNoA11yViolations(
  page: Page,
  { soft = false, screen, ...options }: A11yOptions & { soft?: boolean; screen?: string } = {},
) {
  const violations = await a11yViolations(page, options);
  const report = violations.map(
    (v) =>
      `${v.id} (${v.impact ?? 'unknown'}): ${v.help}\n` +
      v.nodes.map((node) => `  ${node.target.join(' ')}\n    ${node.failureSummary?.replace(/\n/g, '\n    ') ?? ''}`).join('\n'),
  );
  const message = `${screen ? `${screen}: ` : ''}axe found ${violations.length} WCAG violation(s)`;
  if (soft) expect.soft(report, message).toEqual([]);
  else expect(report, message).toEqual([]);
}
