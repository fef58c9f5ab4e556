/** The editor's five steps, and which step owns each form path (to badge steps and jump to errors). */

export const STEPS = [
  { id: 'basics', label: 'Basics' },
  { id: 'placement', label: 'Placement and details' },
  { id: 'pricing', label: 'Pricing and inventory' },
  { id: 'attributes', label: 'Attributes and options' },
  { id: 'review', label: 'Review' },
] as const;

export type StepId = (typeof STEPS)[number]['id'];

const STEP_OF_ROOT: Readonly<Record<string, StepId>> = {
  name: 'basics',
  slug: 'basics',
  slugEdited: 'basics',
  enabled: 'basics',
  weighting: 'basics',
  releaseAt: 'basics',
  expiryAt: 'basics',
  categories: 'placement',
  secureZones: 'placement',
  fields: 'placement',
  prices: 'pricing',
  inventory: 'pricing',
  attributes: 'attributes',
};

/** The step of a form path such as `prices.usd.0`; anything no step owns (e.g. "") belongs to review. */
export function stepOfPath(path: string): StepId {
  const root = path.split('.', 1)[0] ?? '';
  return Object.hasOwn(STEP_OF_ROOT, root) ? (STEP_OF_ROOT[root] ?? 'review') : 'review';
}
