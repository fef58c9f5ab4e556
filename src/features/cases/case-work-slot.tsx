/**
 * Where the team's work on the case shown goes (status, assignee, notes): its panel is a chunk of its own,
 * with zod and the work's contract, loaded once a case is on screen; meanwhile a placeholder, and a way to
 * try again when it cannot be loaded. Part of the case view's chunk, so the first page carries none of it.
 */
import { Button, Skeleton, Stack, Text } from '@mantine/core';
import { lazyModule, useLazyModule } from '@/lib/lazy-module';

const workPanel = lazyModule(() => import('./case-work-panel'));

export function CaseWorkSlot({ form, caseId }: { form: string; caseId: string }) {
  const work = useLazyModule(workPanel, true);
  const CaseWorkPanel = work.module?.CaseWorkPanel;
  if (CaseWorkPanel) return <CaseWorkPanel form={form} caseId={caseId} />;
  if (work.error !== null) {
    return (
      <Stack gap="xs" align="flex-start" role="alert">
        <Text size="sm">The team’s work on this case could not be loaded from site-admin’s server.</Text>
        <Button size="compact-sm" variant="light" onClick={work.load} loading={work.loading}>
          Try again
        </Button>
      </Stack>
    );
  }
  return <Skeleton height={120} aria-label="Loading the team’s work" />;
}
