/**
 * A product update in the Activity page's details: what it changed as a diff (field by field, before →
 * after, in the site's labels and formats; the exact body sent and the product as it was follow, as the
 * entry kept them); the update it reverts, or the revert that undid it; and "Revert this change" for an update the platform made
 * (`updated`) to those who may update products on its site.
 */
import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { actorName } from '@/contract/access';
import { capabilitiesOf } from '@/contract/site-info';
import { settingsForSite } from '@/features/products/model/codec';
import { productReadingOf } from '@/features/products/product-api';
import { DateTime } from '@/lib/date-time';
import { pathTo } from '@/lib/paths';
import { siteHref, useSite } from '@/lib/site-context';
import { activityEntryQuery, updateFollowUpsQuery } from './activity-api';
import { ProductChanges } from './product-changes';
import { RevertDialog } from './revert-dialog';
import { readRecordedUpdate, updateChanges } from './update-diff';

export function UpdateDetails({ seq }: { seq: number }) {
  const { site, sites, many } = useSite();
  const entry = useQuery(activityEntryQuery(seq));
  const followUps = useQuery(updateFollowUpsQuery(seq));
  const [reverting, setReverting] = useState(false);
  const data = entry.data;
  const entrySite = data?.siteId ? sites.find((one) => one.id === data.siteId) : undefined;
  const reading = useMemo(() => productReadingOf(entrySite), [entrySite]);
  const settings = useMemo(() => settingsForSite(navigator.language, entrySite), [entrySite]);
  const read = useMemo(() => (data ? readRecordedUpdate(data.detail, reading.shape) : null), [data, reading]);
  const changes = useMemo(() => (read?.ok ? updateChanges(read.update, settings) : []), [read, settings]);

  if (entry.isError) return <Text size="sm">Entry {seq}, the update, could not be read.</Text>;
  if (!data || !read) return null;
  if (!read.ok) {
    return <Text size="sm">This update cannot be shown as a diff: {read.problem}. What it kept is below as it was recorded.</Text>;
  }
  const { update } = read;
  const done = followUps.data?.reverts.find((revert) => revert.outcome?.outcome === 'updated');
  const tried = followUps.data?.reverts.at(-1);
  const updated = followUps.data?.outcome?.outcome === 'updated';
  const mayUpdate = entrySite !== undefined && capabilitiesOf(entrySite).includes('create');
  return (
    <Stack gap="sm">
      {update.reverts !== null ? <Text size="sm">This update reverts entry {update.reverts}.</Text> : null}
      {done ? (
        <Text size="sm" fw={600}>
          Reverted by entry {done.update.seq} ({actorName(done.update.actor)}, <DateTime date={new Date(done.update.at)} />
          ).
        </Text>
      ) : tried ? (
        <Text size="sm">
          A revert was sent as entry {tried.update.seq}: {tried.outcome ? tried.outcome.outcome : 'no answer recorded'}.
        </Text>
      ) : null}
      <Title order={3} size="h5">
        What this update changed
      </Title>
      <ProductChanges changes={changes} caption={`Product ${update.product}: the product before → as this update left it`} />
      {updated && mayUpdate && !done ? (
        entrySite.id === site.id ? (
          <Button variant="light" color="orange" onClick={() => setReverting(true)} style={{ alignSelf: 'flex-start' }}>
            Revert this change
          </Button>
        ) : (
          <Anchor href={siteHref(entrySite.id, pathTo('activity'), many)} size="sm">
            Revert it from the Activity page of {entrySite.name}
          </Anchor>
        )
      ) : null}
      {entrySite && entrySite.id === site.id ? (
        <RevertDialog
          opened={reverting}
          onClose={() => setReverting(false)}
          seq={seq}
          update={update}
          reading={reading}
          settings={settings}
        />
      ) : null}
    </Stack>
  );
}
