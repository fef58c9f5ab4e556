import { storedValue } from '@/lib/storage';
import type { RememberedMapping } from './columns';

/** Columns mapped by hand, per site, by header: remembered for the next file with the same headers. */
export const rememberedStore = storedValue<RememberedMapping>({
  key: 'site-admin:import:columns:v1',
  parse: (json) => (json !== null && typeof json === 'object' && !Array.isArray(json) ? (json as RememberedMapping) : undefined),
  fallback: {},
  isEmpty: (value) => Object.keys(value).length === 0,
});
