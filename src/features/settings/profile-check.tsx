/**
 * Paste or upload a site profile and have it checked against the schema the server uses at start,
 * before deploying it. The check runs in this page and the profile stays in it; the activity record is
 * told only that a profile was checked, its outcome, how many problems and which site ids it names.
 */
import { Alert, Button, FileButton, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import { useState } from 'react';
import { ACTIVITY_PATHS, MAX_REPORTED_SITE_ID, MAX_REPORTED_SITES, type ProfileCheckReport } from '@/contract/activity';
import { isJsonObject } from '@/contract/site-api-basics';
import { checkSiteProfile, type ProfileProblem, type SiteConfig } from '@/contract/site-profile';
import { callOwnApi } from '@/lib/api-client';
import { classifyApiError } from '@/lib/api-error';
import { describeFailure } from '@/lib/api-error-class';
import { ListEnvelopeCheck } from './list-envelope-check';

/** The site ids a profile's text names, as far as it can be read (a profile with problems may name a few). */
function siteIdsOf(text: string): string[] {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return [];
  }
  const sites = isJsonObject(json) && Array.isArray(json.sites) ? (json.sites as unknown[]) : [];
  const ids = sites.flatMap((site) =>
    isJsonObject(site) && typeof site.id === 'string' && site.id !== '' ? [site.id.slice(0, MAX_REPORTED_SITE_ID)] : [],
  );
  return ids.slice(0, MAX_REPORTED_SITES);
}

type Outcome = { ok: true; sites: string[]; profile: SiteConfig[] } | { ok: false; problems: ProfileProblem[] } | null;

export function ProfileCheck() {
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);
  // Each check is a new profile to try: what was tried for the one before is not shown beside it.
  const [checks, setChecks] = useState(0);
  // The record of the check: these three fields only, never the profile's text.
  const record = useMutation({
    mutationFn: (report: ProfileCheckReport) => callOwnApi(ACTIVITY_PATHS.profileCheck, { method: 'POST', body: report }),
  });
  const check = (value: string) => {
    const result = checkSiteProfile(value);
    setChecks((n) => n + 1);
    setOutcome(
      result.ok
        ? { ok: true, sites: result.profile.sites.map((s) => `${s.name} (${s.id})`), profile: result.profile.sites }
        : { ok: false, problems: result.problems },
    );
    record.mutate(
      result.ok
        ? { outcome: 'ok', problems: 0, sites: result.profile.sites.map((s) => s.id).slice(0, MAX_REPORTED_SITES) }
        : { outcome: 'problems', problems: result.problems.length, sites: siteIdsOf(value) },
    );
  };
  return (
    <Stack gap="sm">
      <Textarea
        label="Site profile (JSON)"
        description="Paste a profile, or open its file, then check it. The profile itself stays in this page; that you checked one, and its outcome, go into the activity record."
        autosize
        minRows={6}
        maxRows={20}
        value={text}
        onChange={(event) => {
          setText(event.currentTarget.value);
          setOutcome(null);
        }}
        spellCheck={false}
        styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
      />
      <Group gap="xs">
        <Button onClick={() => check(text)} disabled={text.trim() === ''}>
          Check profile
        </Button>
        <FileButton
          accept="application/json,.json"
          onChange={(file) => {
            if (!file) return;
            void file.text().then((value) => {
              setText(value);
              check(value);
            });
          }}
        >
          {(props) => (
            <Button variant="default" {...props}>
              Open a file…
            </Button>
          )}
        </FileButton>
      </Group>
      {outcome?.ok === true && (
        <Alert color="teal" title="The profile is valid" role="status">
          <Text size="sm">
            {outcome.sites.length} {outcome.sites.length === 1 ? 'site' : 'sites'}: {outcome.sites.join(', ')}. Put it where SITE_PROFILE
            points, set each live site’s key variable, and restart the server.
          </Text>
        </Alert>
      )}
      {outcome?.ok === true && <ListEnvelopeCheck key={checks} profile={outcome.profile} />}
      {outcome?.ok === false && (
        <Alert
          color="red"
          title={`${outcome.problems.length} ${outcome.problems.length === 1 ? 'problem' : 'problems'}: the server would refuse to start`}
          role="alert"
        >
          <List size="sm" spacing={2}>
            {outcome.problems.map((problem, i) => (
              <List.Item key={`${problem.path}-${i}`}>
                <Text span ff="monospace" size="sm">
                  {problem.path}
                </Text>
                : {problem.message}
              </List.Item>
            ))}
          </List>
        </Alert>
      )}
      {outcome && record.isError ? (
        <Text size="sm" c="dimmed">
          This check could not be written to the activity record: {describeFailure(classifyApiError(record.error))}
        </Text>
      ) : null}
    </Stack>
  );
}
