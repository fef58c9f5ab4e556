/**
 * What a person may do with a change, as the server allows it (mayApprove, mayEdit, mayWithdraw,
 * mayOverride, maySend; the server refuses the rest all the same): Approve, which sends the change when
 * it was the last approval needed; Reject, with a reason; Withdraw; Edit, in the editor, which asks again
 * as a new version; Send now; and, for an owner, Send without approval, with a reason and a confirmation
 * that names the product and says it is recorded.
 */
import { Alert, Anchor, Button, Group, Modal, Stack, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { Change } from '@/contract/approvals';
import { pathTo } from '@/lib/paths';
import { Link, useNavigate } from '@/lib/router';
import { failureMessage } from '@/lib/server-field-errors';
import { approveChange, changeQuery, overrideChange, rejectChange, withdrawChange } from './approvals-api';
import { ReasonDialog } from './reason-dialog';
import { explainSentFailure, isReturned, sendApprovedChange } from './send-approved';

type Dialog = 'reject' | 'withdraw' | 'override' | null;

/** "Linen throw (linen-throw) on Harbour Linen": what the change is about, for a confirmation. */
const named = (change: Change, siteName: string) => `“${change.title}” on ${siteName}`;

function SentOutcome({ answer }: { answer: Record<string, unknown> }) {
  const id = typeof answer.id === 'string' || typeof answer.id === 'number' ? String(answer.id) : null;
  return (
    <Alert color="teal" title="Sent" role="status">
      The platform accepted it{id ? ` (product ${id})` : ''}. The write and its approval are in the activity record.
    </Alert>
  );
}

export function ChangeActions({ change, siteName }: { change: Change; siteName: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [dialog, setDialog] = useState<Dialog>(null);
  const key = changeQuery(change.id).queryKey;
  const refresh = async () => {
    await Promise.all([
      queryClient.invalidateQueries({ queryKey: key }),
      queryClient.invalidateQueries({ queryKey: ['changes'] }),
      queryClient.invalidateQueries({ queryKey: ['change-counts'] }),
    ]);
  };
  const settled = (updated: Change) => {
    queryClient.setQueryData(key, updated);
    void refresh();
  };

  const send = useMutation({ mutationFn: (ready: Change) => sendApprovedChange(ready), onSettled: () => void refresh() });
  /** Sends it at once when it is approved now and this person may send it (not an import: the import's run sends those rows). */
  const sendIfReady = (updated: Change) => {
    settled(updated);
    if (updated.state === 'approved' && updated.maySend && updated.kind !== 'import') send.mutate(updated);
  };
  const approve = useMutation({ mutationFn: () => approveChange(change.id, change.version), onSuccess: sendIfReady });
  const reject = useMutation({
    mutationFn: (reason: string) => rejectChange(change.id, change.version, reason),
    onSuccess: (updated) => {
      setDialog(null);
      settled(updated);
    },
  });
  const withdraw = useMutation({
    mutationFn: () => withdrawChange(change.id),
    onSuccess: (updated) => {
      setDialog(null);
      settled(updated);
    },
  });
  const override = useMutation({
    mutationFn: (reason: string) => overrideChange(change.id, change.version, reason),
    onSuccess: (updated) => {
      setDialog(null);
      sendIfReady(updated);
    },
  });

  const edit = () => {
    const state = { change: change.id, version: change.version };
    if (change.kind === 'update' && change.product !== null) navigate(pathTo('catalogueProduct', { id: change.product }), { state });
    else if (change.kind === 'create') navigate(pathTo('newProduct'), { state });
  };
  const sendable = change.kind !== 'import';
  // Approving or overriding an approved change adds nothing a send needs: Send now is the one way on.
  const mayApprove = change.mayApprove && change.state === 'pending';
  const mayOverride = change.mayOverride && change.state === 'pending';
  const busy = approve.isPending || send.isPending || override.isPending;
  const sendFailure = send.isError ? explainSentFailure(send.error, change.kind) : null;
  const mutationFailure = approve.isError ? approve.error : null;

  return (
    <Stack gap="sm">
      {send.isSuccess ? <SentOutcome answer={send.data} /> : null}
      {sendFailure ? (
        <Alert color={isReturned(send.error) ? 'orange' : 'red'} title={sendFailure.title} role="alert">
          <Text size="sm">{sendFailure.message}</Text>
          {sendFailure.said && !sendFailure.message.includes(sendFailure.said) ? (
            <Text size="sm">It said: “{sendFailure.said}”</Text>
          ) : null}
          {sendFailure.details.map((detail) => (
            <Text size="sm" key={`${detail.field}:${detail.message}`}>
              {detail.field}: {detail.message}
            </Text>
          ))}
        </Alert>
      ) : null}
      {mutationFailure ? (
        <Alert color="red" title="Not done" role="alert">
          {failureMessage(mutationFailure)}
        </Alert>
      ) : null}
      {change.kind === 'import' && change.state === 'approved' ? (
        <Text size="sm">
          Approved: the import sends its rows, each exactly as approved, when it is run.{' '}
          <Anchor component={Link} to={pathTo('importProducts')}>
            Open the import
          </Anchor>
        </Text>
      ) : null}
      <Group gap="xs">
        {mayApprove ? (
          <>
            <Button onClick={() => approve.mutate()} loading={approve.isPending} disabled={busy}>
              Approve
            </Button>
            <Button variant="default" color="red" onClick={() => setDialog('reject')} disabled={busy}>
              Reject…
            </Button>
          </>
        ) : null}
        {change.maySend && sendable && change.state === 'approved' ? (
          <Button onClick={() => send.mutate(change)} loading={send.isPending} disabled={busy}>
            Send now
          </Button>
        ) : null}
        {change.mayEdit && change.kind !== 'import' ? (
          <Button variant="default" onClick={edit}>
            {change.state === 'returned' ? 'Edit against the product as it is now' : 'Edit'}
          </Button>
        ) : null}
        {change.mayWithdraw ? (
          <Button variant="default" onClick={() => setDialog('withdraw')}>
            Withdraw…
          </Button>
        ) : null}
        {mayOverride ? (
          <Button variant="outline" color="orange" onClick={() => setDialog('override')} disabled={busy}>
            Send without approval…
          </Button>
        ) : null}
      </Group>
      {mayApprove ? (
        <Text size="sm" c="dimmed">
          {change.approvals + 1 >= change.needed
            ? sendable
              ? 'Yours is the last approval needed: approving sends it at once, exactly as shown.'
              : 'Yours is the last approval needed: the import may then send its rows, exactly as shown.'
            : `After yours, ${change.needed - change.approvals - 1} more needed before it can be sent.`}
        </Text>
      ) : null}
      {change.mayEdit && change.kind === 'import' ? (
        <Text size="sm" c="dimmed">
          To change a row, change it in the import and ask again: that makes a new version, and approvals of this one no longer count.
        </Text>
      ) : null}

      <ReasonDialog
        opened={dialog === 'reject'}
        onClose={() => {
          reject.reset();
          setDialog(null);
        }}
        title="Reject this change"
        label="Why it is rejected"
        submit="Reject"
        color="red"
        pending={reject.isPending}
        failure={reject.isError ? failureMessage(reject.error) : null}
        onSubmit={(reason) => reject.mutate(reason)}
      >
        <Text size="sm">
          {named(change, siteName)} goes back to {change.author.name}, with your reason. Nothing is sent; they may edit it and ask again.
        </Text>
      </ReasonDialog>
      <ReasonDialog
        opened={dialog === 'override'}
        onClose={() => {
          override.reset();
          setDialog(null);
        }}
        title="Send without approval"
        label="Why it cannot wait for approval"
        submit={sendable ? 'Send without approval' : 'Allow without approval'}
        color="orange"
        pending={override.isPending}
        failure={override.isError ? failureMessage(override.error) : null}
        onSubmit={(reason) => override.mutate(reason)}
      >
        <Alert color="orange" title={`${named(change, siteName)} will be sent without a second person’s approval`}>
          {sendable
            ? 'It is sent as soon as you confirm, exactly as shown on this page.'
            : 'The import may then send its rows, exactly as shown on this page.'}{' '}
          This is recorded as sent without approval, with your name and your reason, in the activity record and on this change, for everyone
          who can see them.
        </Alert>
      </ReasonDialog>
      <Modal opened={dialog === 'withdraw'} onClose={() => setDialog(null)} title="Withdraw this change">
        <Stack gap="sm">
          <Text size="sm">{named(change, siteName)} will not be sent, and nobody can approve it any more. This cannot be undone.</Text>
          {withdraw.isError ? (
            <Alert color="red" title="Not withdrawn" role="alert">
              {failureMessage(withdraw.error)}
            </Alert>
          ) : null}
          <Group justify="flex-end" gap="xs">
            <Button variant="default" onClick={() => setDialog(null)}>
              Keep it
            </Button>
            <Button color="red" onClick={() => withdraw.mutate()} loading={withdraw.isPending}>
              Withdraw
            </Button>
          </Group>
        </Stack>
      </Modal>
    </Stack>
  );
}
