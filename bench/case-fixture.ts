/**
 * A case of 800 submitted fields, of every kind the viewer shows (long text, e-mail, dates, choices,
 * files, addresses, empty), added to the sandbox through its /__sandbox/cases helper.
 */
export const CASE_FIELDS = 800;
/** The rows the viewer shows for it: the submitted fields, then the record's own keys (with the id the sandbox adds). */
export const CASE_ROWS = CASE_FIELDS + 4;
export const CASE_FORM = '3';

const SANDBOX_HEADERS = { 'x-api-key': 'sandbox-local-key', 'x-site-id': '1001', 'content-type': 'application/json' };
const CREATED_AT = 1767225600; // 2026-01-01T00:00:00Z

function fieldValue(i: number): unknown {
  switch (i % 10) {
    case 0:
      return `Message ${i}: the parcel arrived on time but one mug was chipped.\nCould you send a replacement?\n\nThanks`;
    case 1:
      return `customer.${i}@example.com`;
    case 2:
      return CREATED_AT + i * 3600;
    case 3:
      return ['Orders', 'Shipping', 'Returns'].slice(0, 1 + (i % 3));
    case 4:
      return `https://cdn.example.com/uploads/form_3/${i}/photo.jpg`;
    case 5:
      return String(880000 + i);
    case 6:
      return '';
    case 7:
      return { street: `${i} Cuba Street`, city: 'Wellington', postcode: '6011', country: 'NZ' };
    case 8:
      return i % 4 === 0;
    default:
      return `Answer ${i}`;
  }
}

export function bigCaseRecord(): Record<string, unknown> {
  const properties: Record<string, unknown> = { name: 'Amelia Nguyen', email: 'amelia.nguyen@example.com', user_id: '104233' };
  for (let i = 1; Object.keys(properties).length < CASE_FIELDS; i += 1) properties[`form_field_3_${i}`] = fieldValue(i);
  return { name: 'form_3', form_name: 'Contact us', created_at: CREATED_AT, properties };
}

/** Stores the case in the sandbox; answers its id. */
export async function addBigCase(sandboxOrigin: string): Promise<string> {
  const response = await fetch(`${sandboxOrigin}/__sandbox/cases`, {
    method: 'POST',
    headers: SANDBOX_HEADERS,
    body: JSON.stringify({ form: CASE_FORM, record: bigCaseRecord() }),
  });
  if (!response.ok) throw new Error(`Adding the ${CASE_FIELDS}-field case failed: ${response.status} ${await response.text()}`);
  const stored: unknown = await response.json();
  const id = typeof stored === 'object' && stored !== null && 'id' in stored ? stored.id : undefined;
  if (typeof id !== 'string') throw new Error('The sandbox stored the case without an id.');
  return id;
}
