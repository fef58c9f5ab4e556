/**
 * Review of a correction: only what changes, field by field (before → after, per attribute and option:
 * added, changed, disabled, re-enabled), and the exact body a save sends; "No changes" and nothing to send
 * when the form is the product as read. The diff is the model's (diffProduct), from the product as read
 * (`base`) to the values the form holds.
 */
import { Alert, Stack, Text } from '@mantine/core';
import { useEffect, useMemo } from 'react';
import { useFormContext } from 'react-hook-form';
import type { ProductRecord, ProductRecordShape } from '@/contract/products';
import { useProductSettings } from '../editor/settings';
import { updateBodyText } from '../model/body-text';
import { diffProduct, type ProductDiff } from '../model/product-diff';
import type { ProductForm } from '../model/product-form';
import { JsonToSend, ReviewProblems, type ReviewStepProps } from '../steps/review-step';
import { ChangeList } from './change-list';

/** The diff of the form against `base`, timed (a Performance measure, `product-edit:diff`, for the bench). */
export function timedDiff(base: ProductRecord, form: ProductForm, settings: Parameters<typeof diffProduct>[2]): ProductDiff {
  const start = performance.now();
  const diff = diffProduct(base, form, settings);
  performance.measure('product-edit:diff', { start, end: performance.now() });
  return diff;
}

export interface EditReviewProps extends ReviewStepProps {
  base: ProductRecord;
  shape: ProductRecordShape;
  readOnly: boolean;
  /** Whether a save would send anything: the page keeps Save off when not. */
  onHasChanges: (has: boolean) => void;
}

export function EditReview({
  base,
  shape,
  readOnly,
  problems,
  onGoTo,
  status,
  onHasChanges,
  submitLabel = 'Save changes',
}: EditReviewProps) {
  const { getValues } = useFormContext<ProductForm>();
  const settings = useProductSettings();
  const values = getValues();
  const diff = useMemo(() => timedDiff(base, values, settings), [base, values, settings]);
  const has = diff.body !== null;
  useEffect(() => onHasChanges(has), [has, onHasChanges]);
  const removed = diff.changes.some((change) => change.kind === 'disabled' && change.scope !== 'product');
  const json = diff.body === null ? null : updateBodyText(diff.body, shape);
  const count = diff.changes.length;

  return (
    <Stack gap="md">
      {status}
      {problems.length > 0 ? (
        <ReviewProblems problems={problems} onGoTo={onGoTo} verb="saving" />
      ) : status ? null : readOnly ? null : !has ? (
        <Alert color="gray" title="No changes">
          The product is as it is on the platform: nothing would be sent. Change something in the steps above to correct it.
        </Alert>
      ) : (
        <Alert color="teal" title={`Ready to save: ${count} ${count === 1 ? 'change' : 'changes'}`}>
          Only what is listed here is sent; everything else stays as it is on the platform. Review it, then press {submitLabel}.
        </Alert>
      )}
      {removed && (
        <Text size="sm">
          The platform cannot delete an attribute or an option: those removed in the editor are switched off (disabled), so customers no
          longer see them.
        </Text>
      )}
      {count > 0 && <ChangeList changes={diff.changes} label="Changes to save" />}
      {json !== null && <JsonToSend json={json} label="The exact request body of the update" />}
    </Stack>
  );
}
