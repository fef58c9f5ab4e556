/**
 * The pipeline step, after the activity record's, that keeps the promise of an import: no product answered
 * 200 is ever sent again, whichever browser, person or instance resumes it. A create or an update carrying
 * `x-import-product: <import>/<key>` goes on only when the page holds the import's run (`x-import-runner`)
 * and the product was never created, is not on its way and has no unknown outcome; otherwise 409 in the
 * spec's error shape, and nothing is forwarded. The product is 'sending' before the create leaves (with the
 * create's entry in the activity record), and its status follows the outcome before the browser hears it,
 * so a page that dies mid-send still leaves a true status here. The two headers never reach a platform:
 * the proxy forwards only accept, content-type and content-length.
 */
import { IMPORT_KEY_MAX, IMPORT_PRODUCT_HEADER, IMPORT_RUNNER_HEADER, runningSentence } from '../../src/contract/imports';
import { refuse } from '../answers';
import type { ForwardOutcome, Step } from '../pipeline/context';
import { starterOf } from '../identity';
import type { ImportStore, Outcome } from './import-store';

/**
 * The product's status as the import keeps it, from the meaning the proxy gave the answer (the one table,
 * src/contract/write-outcome.ts): created; rejected, with what was said; back to not sent when the answer
 * says it was not processed or the create never left; unknown otherwise.
 */
function importOutcome(outcome: ForwardOutcome, body: string | null, update: boolean): Outcome {
  const meaning = outcome.write ?? { kind: 'unknown' };
  // The product-update step read the product again just before sending and found it changed since the
  // dry run read it (or had no fingerprint to compare): nothing was sent, and it is never sent by itself.
  if (update && meaning.kind === 'rejected' && meaning.status === 412) {
    return {
      status: 'conflict',
      message: 'Changed on the platform since the dry run: this update was not sent. Check the file again to see the product as it is now.',
    };
  }
  if (meaning.kind === 'rejected') {
    return {
      status: 'rejected',
      httpStatus: meaning.status,
      message: meaning.message ?? `The platform refused this product (${meaning.status}).`,
      details: meaning.details.map(({ field, message }) => ({ field, message })),
    };
  }
  if (!outcome.sent || meaning.kind === 'not-processed') return { status: 'pending' };
  if (meaning.kind === 'done') {
    return { status: update ? 'updated' : 'created', body, answer: outcome.kind === 'answered' ? outcome.body : null };
  }
  const may = update ? 'updated' : 'created';
  return {
    status: 'unknown',
    message:
      outcome.kind === 'failed'
        ? `${outcome.reason} It may have been ${may}.`
        : `The platform answered ${outcome.status}: the product may have been ${may}.`,
  };
}

/** What the product's status says was done already, in the refusal's words. */
const ALREADY: Record<string, string> = {
  created: 'created',
  updated: 'updated',
  sending: 'sent and is on its way',
  skipped: 'skipped by hand',
  conflict: 'held back: the product changed on the platform since the dry run',
};

export function guardImportCreates(imports: ImportStore, now: () => number): Step {
  return (request, next) => {
    const { req, res, operation, who } = request;
    const header = req.headers[IMPORT_PRODUCT_HEADER];
    const kind = operation?.name;
    if ((kind !== 'create-product' && kind !== 'update-product') || header === undefined) {
      next();
      return;
    }
    const update = kind === 'update-product';
    const value = Array.isArray(header) ? '' : header;
    const slash = value.indexOf('/');
    const importId = slash > 0 ? value.slice(0, slash) : '';
    const key = slash > 0 ? value.slice(slash + 1) : '';
    const runner = req.headers[IMPORT_RUNNER_HEADER];
    const starter = who ? starterOf(who) : undefined;
    if (!importId || !key || key.length > IMPORT_KEY_MAX || typeof runner !== 'string' || !starter) {
      refuse(
        req,
        res,
        400,
        `${IMPORT_PRODUCT_HEADER} must name an import and a product, with the run's token in ${IMPORT_RUNNER_HEADER}.`,
        [{ field: IMPORT_PRODUCT_HEADER, message: 'must be <import>/<product>, with the run’s token' }],
      );
      return;
    }
    const claimedAt = now();
    void imports.claimProduct(importId, key, runner, starter, claimedAt, kind).then(
      async (claimed) => {
        if (!claimed.ok) {
          const message =
            claimed.why === 'missing'
              ? 'There is no such import: it may have been discarded. Nothing was sent.'
              : claimed.why === 'held'
                ? `${runningSentence({ name: claimed.name ?? '', since: claimed.since ?? 0 }, 'en-GB', 'UTC')} Nothing was sent.`
                : claimed.why === 'not-running'
                  ? 'This page no longer holds the import’s run (it lapsed); take it again to go on. Nothing was sent.'
                  : `This product was already ${ALREADY[claimed.status ?? ''] ?? 'sent (its outcome is unknown)'}: it is never sent again by itself. Nothing was sent.`;
          refuse(req, res, 409, message, [{ field: IMPORT_PRODUCT_HEADER, message: claimed.why }]);
          return;
        }
        let sentBody: string | null = null;
        // After the activity record's hook (the steps' order), whose create entry it notes beside the product.
        (request.forwardHooks ??= []).push({
          beforeSend: async (body, noted) => {
            sentBody = body.toString('utf8');
            if (noted.recordSeq !== undefined) {
              await imports.sent(importId, key, noted.recordSeq, now()).catch((error: unknown) => {
                // 'sending' is already kept, which is what prevents a second send; the entry's number is a convenience.
                console.error('site-admin: an import product’s create entry could not be noted', error);
              });
            }
          },
          // Told of every end, a create not sent included (when its entry could not be written): back to not sent.
          beforeAnswer: async (outcome, noted) => {
            await imports.settle(
              importId,
              key,
              { createSeq: noted.recordSeq ?? null, claimedAt },
              importOutcome(outcome, sentBody, update),
              now(),
            );
          },
        });
        next();
      },
      (error: unknown) => {
        console.error('site-admin: an import product could not be claimed', error);
        refuse(req, res, 503, 'site-admin could not check this import product, so it did not send it; try again in a moment.');
      },
    );
  };
}
