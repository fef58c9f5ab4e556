/**
 * The import's dry run, in the worker (worker-client.ts): again after every change of the file, the
 * mapping, a fix, or the slugs already created on the site. The worker also reads files, so the page's
 * one worker client lives here.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { SiteInfo } from '@/contract/site-info';
import { listCreated } from '../created-products';
import type { ProductSettings } from '../model/codec';
import { slugsOnly, useTeamSlugs } from '../team-slugs';
import type { CheckResult } from './check';
import type { ImportFile, ImportWork } from './import-store';
import type { CatalogueProduct } from './updates';
import { createCheckClient, type CheckClient } from './worker-client';

/** Waits between re-checks while a person types fixes. */
const RECHECK_DELAY_MS = 120;

/**
 * `catalogue`: the site's products, to tell updates from creates; undefined while they are being read (the
 * dry run waits: a product of the site must never be checked, and sent, as new), null when none could be read.
 */
export function useDryRun(
  file: ImportFile | null,
  work: ImportWork | null,
  site: SiteInfo,
  settings: ProductSettings,
  catalogue: readonly CatalogueProduct[] | null | undefined,
) {
  const [client] = useState<{ current: CheckClient | null }>(() => ({ current: null }));
  const getClient = () => (client.current ??= createCheckClient());
  useEffect(() => () => client.current?.dispose(), [client]);
  const [check, setCheck] = useState<{ result: CheckResult; ms: number } | null>(null);
  /** The file whose rows the worker holds (sent once, not with every check). */
  const rowsOf = useRef<ImportFile | null>(null);
  /** The catalogue the worker holds (sent once, not with every check). */
  const catalogueOf = useRef<readonly CatalogueProduct[] | null>(null);

  // Slugs created from this browser, read once (parsing the created list on every answer would cost more
  // than the answer), and those the whole team created on this site, from the activity record (a failure to
  // read them leaves this browser's own); those this import created itself are its own products, not duplicates.
  const [localSlugs] = useState(() => listCreated().flatMap((c) => (c.body.slug ? [c.body.slug] : [])));
  const teamSlugs = useTeamSlugs(site, slugsOnly);
  const statuses = work?.statuses;
  const oursKey = useMemo(
    () =>
      Object.values(statuses ?? {})
        .flatMap((s) => (s.status === 'created' && s.body.slug ? [s.body.slug] : []))
        .join('\n'),
    [statuses],
  );
  const createdSlugs = useMemo(() => {
    const ours = new Set(oursKey.split('\n'));
    return [...new Set([...localSlugs, ...(teamSlugs.data ?? [])])].filter((slug) => !ours.has(slug));
  }, [localSlugs, teamSlugs.data, oursKey]);

  const mapping = work?.mapping;
  const fixes = work?.fixes;
  useEffect(() => {
    if (!file || !mapping || !fixes || catalogue === undefined) return;
    let live = true;
    const timer = setTimeout(() => {
      const rows = rowsOf.current === file ? undefined : file.rows;
      rowsOf.current = file;
      const products = catalogue ?? [];
      const sent = catalogueOf.current === products ? undefined : [...products];
      catalogueOf.current = products;
      void (client.current ??= createCheckClient())
        .check({ rows, mapping, fixes, site, locale: settings.locale, createdSlugs, catalogue: sent })
        .then((answer) => live && setCheck(answer));
    }, RECHECK_DELAY_MS);
    return () => {
      live = false;
      clearTimeout(timer);
    };
  }, [client, file, mapping, fixes, createdSlugs, site, settings.locale, catalogue]);

  return {
    check,
    /** Reads a file (or pasted text) in the worker, which keeps its rows for the checks that follow. */
    parse: async (...args: Parameters<CheckClient['parse']>) => {
      const parsed = await getClient().parse(...args);
      setCheck(null);
      return parsed;
    },
    /** The file just read is the one whose rows the worker holds. */
    holds: (next: ImportFile) => (rowsOf.current = next),
  };
}
