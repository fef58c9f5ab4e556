/**
 * A site's approval rule, for an owner of the site to change: which writes need a second person's approval
 * (none: off), how many approvals, and which roles may give them. Saved on the server (recorded there as
 * `approval.rule`, with the rule before and after); the server refuses anyone but an owner of the site.
 */
import { zodResolver } from '@hookform/resolvers/zod';
import { Alert, Button, Card, Checkbox, Group, Radio, Stack, Text, Title } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Controller, useForm } from 'react-hook-form';
import {
  APPROVAL_KIND_LABELS,
  APPROVAL_KINDS,
  approvalRuleSchema,
  APPROVER_ROLES,
  type ApprovalRule,
  type ApproverRole,
  type SiteRule,
} from '@/contract/approvals';
import { DateTime } from '@/lib/date-time';
import { failureMessage } from '@/lib/server-field-errors';
import { setApprovalRule } from './approvals-api';

const ROLE_WORDS: Record<ApproverRole, string> = { owner: 'Owners', editor: 'Editors' };

/** The rule in a sentence, for whoever may not change it. */
export function ruleSentence(rule: ApprovalRule): string {
  if (rule.writes.length === 0) return 'Off: writes are sent without approval.';
  const writes = rule.writes.map((kind) => APPROVAL_KIND_LABELS[kind].toLowerCase()).join(', ');
  const who = rule.approvers.map((role) => ROLE_WORDS[role].toLowerCase()).join(' or ');
  return `${writes[0]?.toUpperCase() ?? ''}${writes.slice(1)} need ${rule.approvals === 1 ? 'one approval' : 'two approvals'} from ${who} of the site, never from the person who asked.`;
}

export function RulePanel({ siteRule, siteName }: { siteRule: SiteRule; siteName: string }) {
  const queryClient = useQueryClient();
  const form = useForm<ApprovalRule>({ resolver: zodResolver(approvalRuleSchema), defaultValues: siteRule.rule });
  const save = useMutation({
    mutationFn: (rule: ApprovalRule) => setApprovalRule(siteRule.site, rule),
    onSuccess: async (saved) => {
      form.reset(saved.rule);
      await queryClient.invalidateQueries({ queryKey: ['approval-rules'] });
    },
  });
  const { errors, isDirty } = form.formState;
  const title = `Approval rule of ${siteName}`;
  return (
    <Card withBorder component="section" aria-label={title} padding="md">
      <form onSubmit={(event) => void form.handleSubmit((rule) => save.mutate(rule))(event)} noValidate>
        <Stack gap="sm">
          <Title order={2} size="h4">
            {title}
          </Title>
          <Text size="sm" c="dimmed">
            Which writes to this site wait for a second person’s approval before they are sent. The person who asked never approves their
            own change. Only owners of the site see this and may change it.
          </Text>
          <Controller
            control={form.control}
            name="writes"
            render={({ field }) => (
              <Checkbox.Group
                label="Writes that need approval"
                description="None ticked: off"
                value={field.value}
                onChange={field.onChange}
              >
                <Group gap="md" mt={6}>
                  {APPROVAL_KINDS.map((kind) => (
                    <Checkbox key={kind} value={kind} label={APPROVAL_KIND_LABELS[kind]} />
                  ))}
                </Group>
              </Checkbox.Group>
            )}
          />
          <Controller
            control={form.control}
            name="approvals"
            render={({ field }) => (
              <Radio.Group label="Approvals needed" value={String(field.value)} onChange={(value) => field.onChange(Number(value))}>
                <Group gap="md" mt={6}>
                  <Radio value="1" label="1 person" />
                  <Radio value="2" label="2 people" />
                </Group>
              </Radio.Group>
            )}
          />
          <Controller
            control={form.control}
            name="approvers"
            render={({ field }) => (
              <Checkbox.Group label="Who may approve" value={field.value} onChange={field.onChange} error={errors.approvers?.message}>
                <Group gap="md" mt={6}>
                  {APPROVER_ROLES.map((role) => (
                    <Checkbox key={role} value={role} label={ROLE_WORDS[role]} />
                  ))}
                </Group>
              </Checkbox.Group>
            )}
          />
          {save.isError ? (
            <Alert color="red" title="The rule was not saved" role="alert">
              {failureMessage(save.error)}
            </Alert>
          ) : null}
          {save.isSuccess && !isDirty ? (
            <Text size="sm" role="status">
              Saved. {ruleSentence(save.data.rule)}
            </Text>
          ) : null}
          <Group justify="space-between" align="center">
            <Text size="xs" c="dimmed">
              {siteRule.changedBy && siteRule.changedAt !== null ? (
                <>
                  Last changed by {siteRule.changedBy.name}, <DateTime date={new Date(siteRule.changedAt)} />
                </>
              ) : (
                'Never changed: off by default.'
              )}
            </Text>
            <Button type="submit" loading={save.isPending} disabled={!isDirty}>
              Save rule
            </Button>
          </Group>
        </Stack>
      </form>
    </Card>
  );
}
