import { expect, test, type Page } from '@playwright/test';
import { expectNoA11yViolations } from './a11y';

/** A profile of the one sandbox site of `npm start` (`main`, site 1001), naming `forms` and maybe an envelope. */
const profile = (forms: Record<string, object>, lists?: object) =>
  JSON.stringify({
    sites: [{ id: 'main', name: 'Sandbox', platform: { sandbox: true, siteId: '1001' }, forms, ...(lists ? { lists } : {}) }],
  });

async function checkAndTry(page: Page, text: string) {
  await page.getByRole('textbox', { name: /Site profile \(JSON\)/ }).fill(text);
  await page.getByRole('button', { name: 'Check profile' }).click();
  await expect(page.getByRole('status').filter({ hasText: 'The profile is valid' })).toBeVisible();
  await page.getByRole('button', { name: 'Try the list envelopes' }).click();
}

test('the profile check tries the list envelope on the sandbox and says which it found', async ({ page }) => {
  await page.goto('/settings');
  await expect(page.getByRole('heading', { level: 1, name: 'Settings' })).toBeVisible();
  const sites = page.getByRole('list', { name: 'The list envelope of each site' });

  // The warranty claims of form 21: the sandbox answers the default envelope.
  await checkAndTry(page, profile({ '21': { name: 'Warranty claims' } }));
  await expect(sites).toContainText('on this server: the built-in sandbox, site 1001');
  await expect(sites).toContainText('Form 21 answers the “results” envelope, which the profile names (the default).');

  // A profile naming another envelope is told which one the platform answers, and can see the answer.
  await checkAndTry(page, profile({ '21': {} }, { envelope: 'data-meta' }));
  await expect(sites).toContainText('Form 21 answers the “results” envelope, not the “data-meta” the profile names');
  await sites.getByText(/^The answer as it came/).click();
  await expect(page.getByRole('region', { name: 'The platform’s answer to the list' })).toContainText('"total_entries":340');
  await expectNoA11yViolations(page);

  // A form without cases: the platform's 404 is no cases yet, not an error.
  await checkAndTry(page, profile({ '998': {} }));
  await expect(sites).toContainText('Form 998 has no cases yet');
});
