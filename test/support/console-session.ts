import type { Page } from 'playwright-core';

/** Signs in to the console at `baseUrl` with `key` the way a person does, and waits for the first page. */
export async function signInToConsole(page: Page, key: string): Promise<void> {
  await page.goto('/console');
  await page.getByLabel('Admin key').fill(key);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.getByRole('navigation', { name: 'Console' }).waitFor();
}
