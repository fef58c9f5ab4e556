/**
 * The pipeline step, after permissions and before the activity record's, that keeps an update of a product
 * from overwriting what its sender has not seen. The platform offers no version or ETag (platform-
 * operations.md), so an update carries `If-Match` with the fingerprint of the product as the person read it
 * (src/contract/products.ts), and just before it is sent the server reads the product again:
 *
 * - no `If-Match`: 428; one that is not a fingerprint: 400. Nothing is read or sent.
 * - a body that is not a valid update (the create's rules, plus ids, `name` and `enabled` required): 400 or
 *   422 with the details, nothing sent.
 * - the product gone (404 on reading it): 404; the read failed: 503 with Retry-After (nothing was sent, so
 *   sending again is safe).
 * - its fingerprint now differs: 412, nothing sent; the browser reads it again and shows what changed.
 * - `x-revert-of: <seq>` must name an update of this same product on this site in the activity record (422
 *   otherwise).
 *
 * Otherwise the product as read goes to the activity record's hook (the update's entry keeps it as
 * `before`), and the update leaves. Between that read and the update there is a window of one round trip
 * to the platform, which no client of an API without versions can close.
 */
import {
  FINGERPRINT_PATTERN,
  PRODUCT_BASE_HEADER,
  productFingerprint,
  REVERT_OF_HEADER,
  updateBodyFromShape,
  validateProductUpdate,
  type ProductRecordShape,
} from '../../src/contract/products';
import { isJsonObject } from '../../src/contract/site-api-basics';
import { validateProduct } from '../../src/contract/rules';
import { refuse } from '../answers';
import type { ActivityStore } from '../activity/activity-store';
import { WriteRefused, type Step } from '../pipeline/context';
import type { PlatformReader } from '../platform-reader';

/** How long a browser waits before sending again an update whose product could not be read. */
const READ_RETRY_SECONDS = '5';

/**
 * `shapes`: each site's record shape (the profile's `products.record`), by site id: a body is sent in the
 * site's keys and checked in the one shape; a site not in it writes the default.
 */
export function guardProductUpdates(
  readers: ReadonlyMap<string, PlatformReader>,
  activity: ActivityStore,
  shapes: ReadonlyMap<string, ProductRecordShape> = new Map(),
): Step {
  return (request, next) => {
    const { req, res, operation, site } = request;
    if (operation?.name !== 'update-product' || !site) {
      next();
      return;
    }
    const reader = readers.get(site.id);
    const id = /^\/ecommerce\/products\/(\d+)$/.exec(operation.upstreamPath)?.[1];
    const base = req.headers[PRODUCT_BASE_HEADER];
    if (base === undefined) {
      refuse(
        req,
        res,
        428,
        'An update must say which version of the product it changes: If-Match with the fingerprint of the product as you read it. Nothing was sent.',
        [{ field: PRODUCT_BASE_HEADER, message: 'is required on an update' }],
      );
      return;
    }
    if (typeof base !== 'string' || !FINGERPRINT_PATTERN.test(base)) {
      refuse(req, res, 400, 'If-Match must be the fingerprint of the product as read, "sha256-<64 hex digits>". Nothing was sent.', [
        { field: PRODUCT_BASE_HEADER, message: 'must be "sha256-<64 hex digits>", in quotes' },
      ]);
      return;
    }
    const revertHeader = req.headers[REVERT_OF_HEADER];
    if (revertHeader !== undefined && (typeof revertHeader !== 'string' || !/^[1-9]\d{0,15}$/.test(revertHeader))) {
      refuse(req, res, 400, `${REVERT_OF_HEADER} must be the number of an update in the activity record. Nothing was sent.`, [
        { field: REVERT_OF_HEADER, message: 'must be a whole number' },
      ]);
      return;
    }
    if (!reader || id === undefined) {
      refuse(req, res, 500, 'The server lost track of this update.');
      return;
    }
    (request.forwardHooks ??= []).push({
      beforeSend: async (body) => {
        let json: unknown;
        try {
          json = JSON.parse(body.toString('utf8'));
        } catch {
          throw new WriteRefused(400, 'The update is not JSON. Nothing was sent.', [{ field: 'body', message: 'must be a JSON object' }]);
        }
        const shape = shapes.get(site.id);
        const check = validateProductUpdate(shape && isJsonObject(json) ? updateBodyFromShape(json, shape) : json, validateProduct);
        if (!check.ok) {
          throw new WriteRefused(
            check.status,
            check.status === 400
              ? 'The update is malformed: some fields have the wrong type or are not fields of a product. Nothing was sent.'
              : 'The update has fields with values that are not allowed. Nothing was sent.',
            check.details,
          );
        }
        let revertOf: number | undefined;
        if (typeof revertHeader === 'string') {
          const entry = await activity.get(Number(revertHeader));
          const detail = entry?.detail ? (JSON.parse(entry.detail) as { product?: unknown }) : null;
          if (!entry || entry.action !== 'product.update' || entry.site_id !== site.id || detail?.product !== id) {
            throw new WriteRefused(
              422,
              `Entry ${revertHeader} of the activity record is not an update of this product on this site. Nothing was sent.`,
              [{ field: REVERT_OF_HEADER, message: 'must name an update of this product' }],
            );
          }
          revertOf = Number(revertHeader);
        }
        const read = await reader.product(id);
        if (read.kind === 'missing') throw new WriteRefused(404, 'The platform has no product with this id (any more). Nothing was sent.');
        if (read.kind === 'failed') {
          throw new WriteRefused(
            503,
            `site-admin could not read the product to check that nobody changed it since you opened it (${read.reason}), so it did not send the update. Try again in a moment.`,
            undefined,
            { 'retry-after': READ_RETRY_SECONDS },
          );
        }
        let current: unknown;
        try {
          current = JSON.parse(read.text);
        } catch {
          throw new WriteRefused(
            503,
            'The platform answered the product’s read with something that is not JSON, so the update was not sent.',
            undefined,
            {
              'retry-after': READ_RETRY_SECONDS,
            },
          );
        }
        if ((await productFingerprint(current)) !== base) {
          throw new WriteRefused(
            412,
            'This product was changed on the platform since you opened it, so your update was not sent. Read it again to see what changed.',
            [{ field: PRODUCT_BASE_HEADER, message: 'is not the product as it is now' }],
          );
        }
        return { productBefore: read.text, ...(revertOf !== undefined ? { revertOf } : {}) };
      },
    });
    next();
  };
}
