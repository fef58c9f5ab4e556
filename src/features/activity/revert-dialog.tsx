/**
 * "Revert this change": reads the product as the platform has it now, and works out with the products
 * model (revertBody) what putting back the values from before the update would send. It is sent only when
 * the product still holds every value the update wrote, with the fingerprint of the product as just read
 * (so a change made in between is refused by our server, 412) and the update's number in `x-revert-of`
 * (the revert is recorded as its own update, linked to this one). Otherwise the dialog shows what changed
 * since, field by field, and sends nothing.
 */
import { Alert, Button, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { type ProductReading, getProduct, updateProduct } from '@/features/products/product-api';
import { askForApproval } from '@/features/approvals/approvals-api';
import { ApprovalRuleFailed, AskFailed, AskedForApproval, approvalButton, useApprovalNeed } from '@/features/products/approval';
import { updateBodyText } from '@/features/products/model/body-text';
import { useSite } from '@/lib/site-context';
import type { ProductSettings } from '@/features/products/model/codec';
import { revertBody } from '@/features/products/model/revert';
import { ApiError, classifyApiError } from '@/lib/api-error';
import { describeFailure } from '@/lib/api-error-class';
import { JsonBlock } from '@/lib/json-block';
import { REVERT_OF_HEADER } from '@/contract/products';
import { ChangedSinceTable, ProductChanges } from './product-changes';
import type { RecordedUpdate } from './update-diff';

interface RevertDialogProps {
  opened: boolean;
  onClose: () => void;
  /** The update's entry in the record, and what it kept. */
  seq: number;
  update: RecordedUpdate;
  reading: ProductReading;
  settings: ProductSettings;
}

/** Why a call failed, in words: the server's own sentence where it gave one. */
function failureWords(error: unknown): string {
  const said = error instanceof ApiError ? error.said : null;
  return said ?? describeFailure(classifyApiError(error));
}

export function RevertDialog({ opened, onClose, seq, update, reading, settings }: RevertDialogProps) {
  const queryClient = useQueryClient();
  const { site } = useSite();
  // A revert is an update: where the site's rule covers updates, it is asked for, with this entry named.
  const need = useApprovalNeed(site.id, 'update');
  const button = approvalButton(need, 'Send the revert', 'Ask for approval of the revert');
  // A new reading each time the dialog opens: the plan is only as good as the product it was made from.
  const [round, setRound] = useState(0);
  // The update at `seq` never changes (the record is appended only), and the site's reading and settings are
  // fixed for the page; `round` is what asks for a new reading. Hashing the site's fields into the key buys nothing.
  // eslint-disable-next-line @tanstack/query/exhaustive-deps
  const plan = useQuery({
    queryKey: ['revert-plan', seq, round],
    queryFn: async ({ signal }) => {
      const current = await getProduct(update.product, reading, signal);
      if (current.kind === 'unreadable') return { kind: 'unreadable' as const, problem: current.problem, text: current.text };
      return {
        kind: 'read' as const,
        fingerprint: current.fingerprint,
        text: current.text,
        plan: revertBody(update, current.record, settings),
      };
    },
    enabled: opened,
    staleTime: Infinity,
    gcTime: 0,
    retry: false,
  });
  const send = useMutation({
    mutationFn: ({ body, fingerprint }: { body: Parameters<typeof updateProduct>[1]; fingerprint: string }) =>
      updateProduct(update.product, body, fingerprint, reading, undefined, { [REVERT_OF_HEADER]: String(seq) }),
    onSettled: () => {
      void queryClient.invalidateQueries({ queryKey: ['activity'] });
      void queryClient.invalidateQueries({ queryKey: ['activity-update', seq] });
    },
  });
  // The exact text shown is the text asked for (and, once approved, sent).
  const ask = useMutation({
    mutationFn: (asked: { body: string; fingerprint: string; before: string }) =>
      askForApproval({
        site: site.id,
        kind: 'update',
        product: update.product,
        base: asked.fingerprint,
        before: asked.before,
        body: asked.body,
        revertOf: seq,
      }),
  });
  const readAgain = () => {
    send.reset();
    ask.reset();
    setRound((n) => n + 1);
  };
  const close = () => {
    send.reset();
    ask.reset();
    setRound((n) => n + 1);
    onClose();
  };

  const data = plan.data;
  const ready = data?.kind === 'read' && data.plan.ok ? { plan: data.plan, fingerprint: data.fingerprint, before: data.text } : null;
  const bodyText = ready?.plan.body ? updateBodyText(ready.plan.body, reading.shape) : null;
  const done = send.isSuccess || ask.isSuccess;
  const changedSince = error412(send.error);

  return (
    <Modal opened={opened} onClose={close} title={`Revert entry ${seq}`} size="xl">
      <Stack gap="sm">
        {plan.isPending && opened ? (
          <Group gap="xs" role="status">
            <Loader size="sm" />
            <Text size="sm">Reading the product as it is now…</Text>
          </Group>
        ) : null}
        {plan.isError ? (
          <Alert color="red" title="The product could not be read" role="alert">
            {failureWords(plan.error)} Nothing was sent.
          </Alert>
        ) : null}
        {data?.kind === 'unreadable' ? (
          <Alert color="red" title="The platform’s answer is not a product site-admin can read" role="alert">
            {data.problem}. Nothing was sent.
            <JsonBlock json={data.text} label="What the platform answered" maxHeight="30vh" />
          </Alert>
        ) : null}
        {data?.kind === 'read' && !data.plan.ok ? (
          <>
            <Alert color="orange" title="The product changed since this update: nothing was sent" role="alert">
              Reverting would overwrite what changed since. These fields no longer hold the values this update wrote; change them in the
              editor if they should go back.
            </Alert>
            <ChangedSinceTable changed={data.plan.changedSince} />
          </>
        ) : null}
        {ready && ready.plan.body === null ? <Text>This update changed nothing, so there is nothing to put back.</Text> : null}
        {ready && bodyText !== null && !done ? (
          <>
            <Text size="sm">
              The product still holds every value this update wrote. Reverting sends the values it had before, and nothing else:
            </Text>
            <ProductChanges changes={ready.plan.changes} caption="What reverting would change" />
            <JsonBlock json={bodyText} label="What will be sent" maxHeight="30vh" />
          </>
        ) : null}
        {send.isSuccess ? (
          <Alert color="teal" title="Reverted" role="status">
            The product has its values from before entry {seq} again. The revert is recorded as an update of its own.
          </Alert>
        ) : null}
        {ask.isSuccess ? <AskedForApproval change={ask.data} siteName={site.name} /> : null}
        {ask.isError ? <AskFailed error={ask.error} /> : null}
        {need.state === 'failed' && ready && bodyText !== null ? <ApprovalRuleFailed need={need} siteName={site.name} /> : null}
        {send.isError ? (
          <Alert
            color={changedSince ? 'orange' : 'red'}
            title={changedSince ? 'Not sent: the product changed just now' : 'The revert failed'}
            role="alert"
          >
            {failureWords(send.error)}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="xs">
          {send.isError || (data?.kind === 'read' && !data.plan.ok) ? (
            <Button variant="default" onClick={readAgain}>
              Read the product again
            </Button>
          ) : null}
          <Button variant="default" onClick={close}>
            {done ? 'Done' : 'Cancel'}
          </Button>
          {ready && bodyText !== null && !done && !send.isError && !ask.isError ? (
            <Button
              color="orange"
              loading={send.isPending || ask.isPending}
              disabled={!button.ready}
              onClick={() => {
                if (!ready.plan.body) return;
                if (need.state === 'on') ask.mutate({ body: bodyText, fingerprint: ready.fingerprint, before: ready.before });
                else send.mutate({ body: ready.plan.body, fingerprint: ready.fingerprint });
              }}
            >
              {button.label}
            </Button>
          ) : null}
        </Group>
      </Stack>
    </Modal>
  );
}

/** Whether a failure is our server's 412: the product changed between this reading and the send. */
function error412(error: unknown): boolean {
  return error instanceof ApiError && error.status === 412;
}
