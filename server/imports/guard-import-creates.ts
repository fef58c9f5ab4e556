/**
 * The pipeline step, after the activity record's, that keeps the promise of an import: no product answered
 * 200 is ever sent again, whichever browser, person or instance resumes it. A create carrying
 * `x-import-product: <import>/<key>` goes on only when the page holds the import's run (`x-import-runner`)
 * and the product was never created, is not on its way and has no unknown outcome; otherwise 409 in the
 * spec's error shape, and nothing is forwarded. The product is 'sending' before the create leaves (with the
 * create's entry in the activity record), and its status follows the outcome before the browser hears it,
 * so a page that dies mid-send still leaves a true status here. The two headers never reach a platform:
 * the proxy forwards only accept, content-type and content-length.
 */
import { IMPORT_PRODUCT_HEADER, IMPORT_RUNNER_HEADER, runningSentence } from '../../src/contract/imports';
import { refuse } from '../answers';
import { createOutcome } from '../activity/record-site-calls';
import type { ForwardOutcome, Step } from '../pipeline/context';
import { starterOf } from '../identity';
import type { ImportStore, Outcome } from './import-store';

/** The outcome as the import keeps it, from what the platform (or the proxy) answered. */
function outcomeOf(outcome: ForwardOutcome, sent: boolean, body: string | null): Outcome {
  const meaning = createOutcome(outcome);
  if (meaning === 'rejected' || (!sent && outcome.kind === 'failed' && outcome.status === 413)) {
    let message = outcome.kind === 'failed' ? outcome.reason : `The platform refused this product (${outcome.status}).`;
    let details: { field: string; message: string }[] = [];
    if (outcome.kind === 'answered' && outcome.body) {
      try {
        const json = JSON.parse(outcome.body) as { message?: unknown; details?: unknown };
        if (typeof json.message === 'string') message = json.message;
        if (Array.isArray(json.details)) {
          details = json.details.flatMap((d: unknown) => {
            const { field, message: m } = (d ?? {}) as { field?: unknown; message?: unknown };
            return typeof field === 'string' && typeof m === 'string' ? [{ field, message: m }] : [];
          });
        }
      } catch {
        // An answer that is not JSON: the status says enough.
      }
    }
    return { status: 'rejected', httpStatus: outcome.status, message, details };
  }
  if (!sent) return { status: 'pending' };
  if (meaning === 'created') return { status: 'created', body, answer: outcome.kind === 'answered' ? outcome.body : null };
  if (meaning === 'not-processed') return { status: 'pending' };
  return {
    status: 'unknown',
    message:
      outcome.kind === 'failed'
        ? `${outcome.reason} It may have been created.`
        : `The platform answered ${outcome.status}: the product may have been created.`,
  };
}

export function guardImportCreates(imports: ImportStore, now: () => number): Step {
  return (request, next) => {
    const { req, res, operation, who } = request;
    const header = req.headers[IMPORT_PRODUCT_HEADER];
    if (operation?.name !== 'create-product' || header === undefined) {
      next();
      return;
    }
    const value = Array.isArray(header) ? '' : header;
    const slash = value.indexOf('/');
    const importId = slash > 0 ? value.slice(0, slash) : '';
    const key = slash > 0 ? value.slice(slash + 1) : '';
    const runner = req.headers[IMPORT_RUNNER_HEADER];
    const starter = who ? starterOf(who) : undefined;
    if (!importId || !key || key.length > 100 || typeof runner !== 'string' || !starter) {
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
    void imports.claimProduct(importId, key, runner, starter, claimedAt).then(
      async (claimed) => {
        if (!claimed.ok) {
          const message =
            claimed.why === 'missing'
              ? 'There is no such import: it may have been discarded. Nothing was sent.'
              : claimed.why === 'held'
                ? `${runningSentence({ name: claimed.name ?? '', since: claimed.since ?? 0 }, 'en-GB', 'UTC')} Nothing was sent.`
                : claimed.why === 'not-running'
                  ? 'This page no longer holds the import’s run (it lapsed); take it again to go on. Nothing was sent.'
                  : `This product was already ${claimed.status === 'created' ? 'created' : claimed.status === 'sending' ? 'sent and is on its way' : 'sent (its outcome is unknown)'}: it is never sent again by itself. Nothing was sent.`;
          refuse(req, res, 409, message, [{ field: IMPORT_PRODUCT_HEADER, message: claimed.why }]);
          return;
        }
        const inner = request.forwardHooks;
        let sentBody: string | null = null;
        request.forwardHooks = {
          beforeSend: async (body) => {
            try {
              await inner?.beforeSend?.(body);
            } catch (error) {
              // Not written, so not sent: the product goes back to not sent.
              await imports.settle(importId, key, { createSeq: null, claimedAt }, { status: 'pending' }, now()).catch(() => undefined);
              throw error;
            }
            sentBody = body.toString('utf8');
            if (request.createSeq !== undefined) {
              await imports.sent(importId, key, request.createSeq, now()).catch((error: unknown) => {
                // 'sending' is already kept, which is what prevents a second send; the entry's number is a convenience.
                console.error('site-admin: an import product’s create entry could not be noted', error);
              });
            }
          },
          beforeAnswer: async (outcome) => {
            try {
              await imports.settle(
                importId,
                key,
                { createSeq: request.createSeq ?? null, claimedAt },
                outcomeOf(outcome, sentBody !== null, sentBody),
                now(),
              );
            } finally {
              await inner?.beforeAnswer?.(outcome);
            }
          },
        };
        next();
      },
      (error: unknown) => {
        console.error('site-admin: an import product could not be claimed', error);
        refuse(req, res, 503, 'site-admin could not check this import product, so it did not send it; try again in a moment.');
      },
    );
  };
}
