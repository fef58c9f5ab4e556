/**
 * The team's work on a case, end to end on the roles' server (the example profile's two sandbox shops with
 * the stakeholder demo's people; project `roles`): support
 * opens a warranty claim, sets its status, assigns it, adds a note and edits it, and sees the earlier text; a
 * second person, in a browser of their own, sees the same work, cannot edit that note, and the case is new to
 * them until they open it. The work's storage (status, assignee, notes and their earlier texts, seen) is
 * proven on both engines by server/inbox/case-work.test.ts; the page's part does not depend on the engine.
 */
import { expect, test, type Browser, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './a11y';

const OWNER = { email: 'olivia@demo.example', password: 'demo owner sees every shop', name: 'Olivia Marsh' };
const SUPPORT = { email: 'sam@demo.example', password: 'demo support reads cases', name: 'Sam Rivera' };
/** A warranty claim of the first shop's seed (form 21), which no other test works on. */
const CASE_ADDRESS = '/s/harbour-linen/cases/21/50001';

/** A browser of its own for `person`, signed in through the page, on the case. */
async function signedIn(browser: Browser, person: { email: string; password: string }, address = CASE_ADDRESS): Promise<Page> {
  const context = await browser.newContext();
  const page = await context.newPage();
  await page.goto(address);
  await expect(page.getByRole('heading', { level: 1, name: 'Sign in' })).toBeVisible();
  await page.getByRole('textbox', { name: 'E-mail address' }).fill(person.email);
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(person.password);
  await page.getByRole('button', { name: 'Sign in', exact: true }).click();
  await expect(page.getByRole('button', { name: /, signed in: your account and sign-out$/ })).toBeVisible();
  return page;
}

/** Whether `page`'s person has seen the case, as our server keeps it. */
async function seenBy(page: Page): Promise<boolean | undefined> {
  const answer = await page.request.get('/api/inbox/harbour-linen/21/work?cases=50001');
  expect(answer.status()).toBe(200);
  return ((await answer.json()) as { cases: Record<string, { seen: boolean }> }).cases['50001']?.seen;
}
const caseHeading = (page: Page) => page.getByRole('heading', { level: 2, name: 'Warranty claims: case 50001' });

const workPanel = (page: Page) => page.getByRole('region', { name: 'Team’s work' });

test('support works a case, and a colleague sees the same work', async ({ browser }) => {
  const sam = await signedIn(browser, SUPPORT);
  await expect(caseHeading(sam)).toBeVisible();
  const panel = workPanel(sam);
  const status = panel.getByRole('combobox', { name: 'Status' });
  await expect(status).toHaveValue('new');
  // Opening the case marked it seen for Sam.
  await expect.poll(() => seenBy(sam)).toBe(true);

  await status.selectOption('Waiting on customer');
  await expect(panel.getByText(`Last changed by ${SUPPORT.name}`)).toBeVisible();
  await expect(status).toBeEnabled();
  const assignee = panel.getByRole('combobox', { name: 'Assigned to' });
  await expect(assignee).toHaveValue('nobody');
  await assignee.selectOption({ label: 'Eddie Park' });
  await expect(assignee).toBeEnabled();
  await expect(assignee.locator('option:checked')).toHaveText('Eddie Park');

  const first = 'Asked the customer for a photo of the label.';
  await panel.getByRole('textbox', { name: 'Add a note' }).fill(first);
  await panel.getByRole('button', { name: 'Add note' }).click();
  const notes = panel.getByRole('list', { name: 'Notes' });
  await expect(notes.getByText(first)).toBeVisible();
  await expect(panel.getByRole('textbox', { name: 'Add a note' })).toHaveValue('');

  await notes.getByRole('button', { name: /^Edit your note of / }).click();
  const edit = panel.getByRole('textbox', { name: 'Edit your note' });
  await expect(edit).toHaveValue(first);
  const second = 'Photo of the label received; replacement approved.';
  await edit.fill(second);
  await panel.getByRole('button', { name: 'Save note' }).click();
  await expect(notes.getByText(second)).toBeVisible();
  await notes.getByRole('button', { name: 'Edited · show earlier text' }).click();
  await expect(panel.getByRole('list', { name: 'Earlier texts, oldest first' }).getByText(first)).toBeVisible();
  await expectNoA11yViolations(sam, { include: ['section[aria-labelledby]'] });

  // Olivia, in a browser of her own: not seen by her until she opens it.
  const olivia = await signedIn(browser, OWNER, '/s/harbour-linen/cases');
  expect(await seenBy(olivia)).toBe(false);
  await olivia.goto(CASE_ADDRESS);
  await expect(caseHeading(olivia)).toBeVisible();
  const hers = workPanel(olivia);
  await expect(hers.getByRole('combobox', { name: 'Status' })).toHaveValue('waiting');
  await expect(hers.getByRole('combobox', { name: 'Assigned to' }).locator('option:checked')).toHaveText('Eddie Park');
  const herNotes = hers.getByRole('list', { name: 'Notes' });
  await expect(herNotes.getByText(second)).toBeVisible();
  // Its author and when, and that it was edited.
  await expect(herNotes.getByText(new RegExp(`^${SUPPORT.name}, .+ · edited `))).toBeVisible();
  // Only its author edits a note.
  await expect(herNotes.getByRole('button', { name: /^Edit your note/ })).toHaveCount(0);
  await herNotes.getByRole('button', { name: 'Edited · show earlier text' }).click();
  await expect(hers.getByRole('list', { name: 'Earlier texts, oldest first' }).getByText(first)).toBeVisible();
  await expect.poll(() => seenBy(olivia)).toBe(true);

  // The record has each change, by Sam, and never the note's text.
  const record = await olivia.request.get('/api/activity?site=harbour-linen&limit=50');
  const entries = ((await record.json()) as { entries: { action: string; actor: { name?: string }; target: { case: string | null } }[] })
    .entries;
  const mine = entries.filter((entry) => entry.target.case === '50001' && entry.action !== 'case.lookup');
  expect(mine.map((entry) => [entry.action, entry.actor.name]).reverse()).toEqual([
    ['case.status', SUPPORT.name],
    ['case.assigned', SUPPORT.name],
    ['case.note.added', SUPPORT.name],
    ['case.note.edited', SUPPORT.name],
  ]);
  expect(JSON.stringify(entries)).not.toContain('photo of the label');
  // The Activity page names the case and what it became.
  await olivia.goto('/s/harbour-linen/activity?action=case.status');
  await expect(olivia.getByRole('button', { name: /Case status changed Form 21, case 50001: Waiting on customer/ })).toBeVisible();
  await sam.context().close();
  await olivia.context().close();
});
