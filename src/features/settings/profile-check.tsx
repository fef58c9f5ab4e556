/**
 * Paste or upload a site profile and have it checked against the schema the server uses at start,
 * before deploying it. Nothing is sent anywhere: the check runs in this page.
 */
import { Alert, Button, FileButton, Group, List, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { checkSiteProfile, type ProfileProblem } from '@/contract/site-profile';

type Outcome = { ok: true; sites: string[] } | { ok: false; problems: ProfileProblem[] } | null;

export function ProfileCheck() {
  const [text, setText] = useState('');
  const [outcome, setOutcome] = useState<Outcome>(null);
  const check = (value: string) => {
    const result = checkSiteProfile(value);
    setOutcome(
      result.ok ? { ok: true, sites: result.profile.sites.map((s) => `${s.name} (${s.id})`) } : { ok: false, problems: result.problems },
    );
  };
  return (
    <Stack gap="sm">
      <Textarea
        label="Site profile (JSON)"
        description="Paste a profile, or open its file, then check it. It stays in this page: nothing is uploaded."
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
    </Stack>
  );
}
