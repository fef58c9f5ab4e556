/**
 * A created product's platform id, as the team's list and a created product show it: a link to the product
 * in the Catalogue where it is a platform id, the text as the platform wrote it otherwise.
 */
import { Anchor } from '@mantine/core';
import { PLATFORM_ID_PATTERN } from '@/contract/products';
import { pathTo } from '@/lib/paths';
import { Link } from '@/lib/router';

export function PlatformIdLink({ id }: { id: string | undefined }) {
  if (id === undefined) return null;
  if (!PLATFORM_ID_PATTERN.test(id)) return id;
  return (
    <Anchor component={Link} to={pathTo('catalogueProduct', { id })} aria-label={`${id}: open in the Catalogue`}>
      {id}
    </Anchor>
  );
}
