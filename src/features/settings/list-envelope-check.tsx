/**
 * Tries the list envelope a profile names against this server's sites: for each site of the profile that
 * names forms, one page of one case of its first form, through the same proxy and permission as every
 * list, and says which envelope the answer is. The profile cannot be tried against an address it names
 * itself (the key of a site is the server's, never this page's): only against the site of the same id
 * this server works on, and the page says where that is.
 */
import { Badge, Box, Button, Code, List, Stack, Text } from '@mantine/core';
import { useMutation } from '@tanstack/react-query';
import type { SiteConfig } from '@/contract/site-profile';
import { getAnswer } from '@/lib/api-client';
import { JsonBlock } from '@/lib/json-block';
import { useSite } from '@/lib/site-context';
import {
  envelopeNames,
  failedOutcome,
  KNOWN_ENVELOPES,
  planEnvelopeChecks,
  readEnvelopeOutcome,
  type EnvelopeOutcome,
  type EnvelopePlan,
} from './list-envelope-probe';

/** At most this much of a raw answer is shown: enough to see its shape, never a page of personal data. */
export const RAW_SHOWN_CHARACTERS = 2000;

type Tried = Extract<EnvelopePlan, { kind: 'try' }>;

function RawAnswer({ raw }: { raw: string }) {
  const shown = raw.length > RAW_SHOWN_CHARACTERS ? raw.slice(0, RAW_SHOWN_CHARACTERS) : raw;
  const summary =
    raw.length > RAW_SHOWN_CHARACTERS
      ? `The answer as it came (the first ${RAW_SHOWN_CHARACTERS.toLocaleString('en')} of ${raw.length.toLocaleString('en')} characters)`
      : `The answer as it came (${raw.length.toLocaleString('en')} characters)`;
  return (
    <Box component="details" mt={4}>
      <Text component="summary" size="sm" style={{ cursor: 'pointer' }}>
        {summary}
      </Text>
      <JsonBlock json={shown} label="The platform’s answer to the list" maxHeight={240} />
    </Box>
  );
}

function OutcomeText({ plan, outcome }: { plan: Tried; outcome: EnvelopeOutcome }) {
  const named = `“${plan.named}”${plan.byDefault ? ' (the default)' : ''}`;
  const form = `Form ${plan.form}`;
  switch (outcome.kind) {
    case 'fits': {
      const others = outcome.found.filter((name) => name !== plan.named);
      return (
        <Text size="sm">
          <Badge color="teal" variant="light" mr={6} component="span">
            matches
          </Badge>
          {form} answers the “{plan.named}” envelope, which the profile names{plan.byDefault ? ' (the default)' : ''}.
          {others.length > 0 ? ` It also fits ${envelopeNames(others)}.` : ''}
        </Text>
      );
    }
    case 'other':
      return (
        <Stack gap={2}>
          <Text size="sm">
            <Badge color="red" variant="light" mr={6} component="span">
              problem
            </Badge>
            {outcome.found.includes(plan.named)
              ? `${form} answers the ${named} envelope the profile names, but not the page asked for: ${outcome.problem}.`
              : outcome.found.length > 0
                ? `${form} answers the ${envelopeNames(outcome.found)} envelope, not the ${named} the profile names (${outcome.problem}): ` +
                  `set sites[].lists.envelope to ${envelopeNames(outcome.found)}, or the inbox cannot read this site’s lists.`
                : `${form} answers in none of the envelopes site-admin reads (${KNOWN_ENVELOPES}); as the ${named} the profile names, ${outcome.problem}. ` +
                  'The inbox cannot read this site’s lists until the platform’s shape is added to site-admin.'}
          </Text>
          <RawAnswer raw={outcome.raw} />
        </Stack>
      );
    case 'no-cases':
      return (
        <Text size="sm">
          <Badge color="gray" variant="light" mr={6} component="span">
            no cases yet
          </Badge>
          {form} has no cases yet (the platform answered 404, as it does for an empty list): there is no page to tell the envelope by. Try
          again once it has a case.
        </Text>
      );
    case 'failed':
      return (
        <Text size="sm">
          <Badge color="yellow" variant="light" mr={6} component="span">
            not read
          </Badge>
          {form}’s list could not be read: {outcome.message}
        </Text>
      );
  }
}

function skipped(plan: EnvelopePlan): string | null {
  switch (plan.kind) {
    case 'no-forms':
      return 'names no forms, so it has no list to try.';
    case 'not-on-this-server':
      return 'is not a site of this server that you may use, so its list cannot be tried from here.';
    case 'no-lookup':
      return 'not tried: you may not look up cases on this site, and a list needs the same permission.';
    case 'try':
      return null;
  }
}

export function ListEnvelopeCheck({ profile }: { profile: readonly SiteConfig[] }) {
  const { sites } = useSite();
  const plans = planEnvelopeChecks(profile, sites);
  const tried = plans.filter((plan): plan is Tried => plan.kind === 'try');
  const run = useMutation({
    mutationFn: () =>
      Promise.all(
        tried.map(async (plan): Promise<EnvelopeOutcome> => {
          try {
            return readEnvelopeOutcome(await getAnswer(plan.path), plan.named);
          } catch (error) {
            return failedOutcome(error);
          }
        }),
      ),
  });
  const outcomes = run.data;
  return (
    <Stack gap="xs">
      <Text size="sm">
        The list’s envelope is where a list of cases holds its cases and totals, which the platform does not publish. Try each site’s first
        form on this server to see which envelope its platform answers (one request of one case a site).
      </Text>
      <Box>
        <Button variant="default" onClick={() => run.mutate()} loading={run.isPending} disabled={tried.length === 0}>
          Try the list envelopes
        </Button>
      </Box>
      <Box aria-live="polite">
        <List size="sm" spacing={6} listStyleType="none" aria-label="The list envelope of each site">
          {plans.map((plan) => {
            const index = tried.indexOf(plan as Tried);
            const outcome = index >= 0 ? outcomes?.[index] : undefined;
            const reason = skipped(plan);
            return (
              <List.Item key={plan.id}>
                <Stack gap={2}>
                  <Text size="sm">
                    <Text span fw={600} inherit>
                      {plan.name} <Code>{plan.id}</Code>
                    </Text>{' '}
                    <Text span c="dimmed" inherit>
                      {reason ??
                        (plan.kind === 'try'
                          ? `on this server: ${plan.where}${plan.differs ? ` (${plan.differs}: the answer is this server’s)` : ''}`
                          : '')}
                    </Text>
                  </Text>
                  {plan.kind === 'try' && outcome ? <OutcomeText plan={plan} outcome={outcome} /> : null}
                </Stack>
              </List.Item>
            );
          })}
        </List>
      </Box>
    </Stack>
  );
}
