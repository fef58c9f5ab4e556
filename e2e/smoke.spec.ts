import { expect, test } from '@playwright/test';

test('the app opens on Cases, on the sandbox, with navigation', async ({ page }) => {
  await page.goto('/');
  await expect(page).toHaveURL(/\/cases$/);
  await expect(page.getByRole('heading', { level: 1, name: 'Cases' })).toBeVisible();
  await expect(page.getByText('Sandbox · site 1001')).toBeVisible();
  // Nobody in its database, on loopback: no sign-in, and the header says so.
  await expect(page.getByTestId('demo-mark')).toContainText('No sign-in: local demo');
  await expect(page.getByText('No sign-in: local demo', { exact: true })).toBeVisible();
  await expect(page.getByRole('button', { name: /, signed in: your account and sign-out$/ })).toHaveCount(0);
  const nav = page.getByRole('navigation', { name: 'Main' });
  await nav.getByRole('link', { name: /New product/ }).click();
  await expect(page).toHaveURL(/\/products\/new$/);
  await expect(page.getByRole('heading', { level: 1, name: 'New product' })).toBeVisible();
});

test('the colour scheme switches between light and dark and is remembered', async ({ page }) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await page.goto('/cases');
  const html = page.locator('html');
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'light');
  await page.getByRole('button', { name: 'Switch to dark mode' }).click();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
  await page.reload();
  await expect(html).toHaveAttribute('data-mantine-color-scheme', 'dark');
});

test('scripts arrive compressed and cached for a year; the page itself is revalidated', async ({ page }) => {
  const scripts: { encoding?: string; cache?: string }[] = [];
  page.on('response', (response) => {
    if (/\/assets\/.*\.js$/.test(response.url())) {
      const headers = response.headers();
      scripts.push({ encoding: headers['content-encoding'], cache: headers['cache-control'] });
    }
  });
  const document = await page.goto('/cases');
  expect(document?.headers()['cache-control']).toBe('no-cache');
  expect(document?.headers()['content-security-policy']).toContain("script-src 'self'");
  await expect(page.getByText('Sandbox · site 1001')).toBeVisible();
  expect(scripts.length).toBeGreaterThan(0);
  for (const script of scripts) {
    expect(['br', 'gzip']).toContain(script.encoding);
    expect(script.cache).toContain('immutable');
  }
});
