/**
 * Settings: the profile of the site this page works on, readable (each label beside its wire key), and
 * a checker for a profile to deploy. Nothing here changes the server: the profile is a file the operator
 * deploys (SITE_PROFILE).
 */
import { Card, Stack, Text, Title } from '@mantine/core';
import { useSite } from '@/lib/site-context';
import { ProfileCheck } from './profile-check';
import { ProfileSummary } from './profile-summary';

export function SettingsPage() {
  const { site, sites } = useSite();
  return (
    <Stack gap="lg" maw={1100}>
      <Stack gap={4}>
        <Title order={1}>Settings</Title>
        <Text c="dimmed">
          {site.name} ({site.id}) ·{' '}
          {site.mode === 'sandbox' ? `the built-in sandbox, site ${site.siteId}` : `live at ${site.host ?? ''}, site ${site.siteId}`}
          {sites.length > 1 ? ` · one of ${sites.length} sites on this server` : ''}
        </Text>
      </Stack>
      <Card withBorder padding="md" component="section" aria-labelledby="active-profile">
        <Title order={2} size="h4" id="active-profile" mb="sm">
          This site’s profile
        </Title>
        <ProfileSummary site={site} />
      </Card>
      <Card withBorder padding="md" component="section" aria-labelledby="check-profile">
        <Title order={2} size="h4" id="check-profile" mb="xs">
          Check a profile before deploying it
        </Title>
        <ProfileCheck />
      </Card>
    </Stack>
  );
}
