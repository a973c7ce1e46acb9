import fs from 'node:fs';
import path from 'node:path';
import { chromium, type Browser, type BrowserContext, type Page } from 'playwright-core';

/** Debian's chromium (scripts/ensure-chromium.sh installs it), or CHROMIUM_PATH. */
export function chromiumPath(): string {
  return process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
}

/** Where the test run writes its screenshots (one per page and viewport). */
export const SCREENSHOT_DIR = path.resolve(process.env.SCREENSHOT_DIR ?? 'test-output/screenshots');

/** The two viewports every main page is checked and photographed at: a laptop and a phone. */
export const VIEWPORTS = [
  { name: 'laptop', width: 1280, height: 800 },
  { name: 'phone', width: 390, height: 844 },
] as const;

export async function launchBrowser(): Promise<Browser> {
  // --no-sandbox: the tests run as root in CI, where Chromium's sandbox refuses to start.
  return chromium.launch({ executablePath: chromiumPath(), args: ['--no-sandbox', '--disable-dev-shm-usage'] });
}

/**
 * A page that fails the test on what a person would not see but must not happen: a script error, a
 * console error (a Content-Security-Policy violation is one) or a request to another origin.
 */
export interface WatchedPage {
  page: Page;
  context: BrowserContext;
  /** Problems seen so far; assertProblemFree() throws when there are any. */
  problems: string[];
  assertProblemFree(): void;
  close(): Promise<void>;
}

export async function openPage(browser: Browser, baseUrl: string, options: { viewport?: { width: number; height: number }; userAgent?: string; extraHTTPHeaders?: Record<string, string>; allowedErrors?: RegExp[] } = {}): Promise<WatchedPage> {
  const context = await browser.newContext({
    baseURL: baseUrl,
    viewport: options.viewport ?? VIEWPORTS[0],
    userAgent: options.userAgent,
    extraHTTPHeaders: options.extraHTTPHeaders,
    acceptDownloads: true,
  });
  const page = await context.newPage();
  const problems: string[] = [];
  const allowed = options.allowedErrors ?? [];
  const origin = new URL(baseUrl).origin;
  page.on('pageerror', (error) => problems.push(`script error: ${error.message}`));
  page.on('console', (message) => {
    if (message.type() !== 'error') return;
    const text = message.text();
    // A refused API call shows in Chromium's console as a failed resource; the page shows it in words.
    if (/Failed to load resource: the server responded with a status of 4\d\d/.test(text)) return;
    if (allowed.some((pattern) => pattern.test(text))) return;
    problems.push(`console error: ${text}`);
  });
  page.on('request', (request) => {
    const url = new URL(request.url());
    if (url.protocol !== 'data:' && url.protocol !== 'blob:' && url.origin !== origin && !allowed.some((p) => p.test(request.url()))) {
      problems.push(`request to another origin: ${request.url()}`);
    }
  });
  return {
    page,
    context,
    problems,
    assertProblemFree() {
      if (problems.length > 0) throw new Error(`the page had problems:\n${problems.join('\n')}`);
    },
    close: () => context.close(),
  };
}

const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: unknown[]; failureSummary?: string }>;
}

/**
 * Runs axe-core in the page (evaluated through the DevTools protocol, which the page's CSP does not
 * govern) and throws on any serious or critical violation, naming the rule and the elements.
 */
export async function assertAccessible(page: Page, label: string): Promise<void> {
  // Expressions as text: they run in the page, whose globals (window, axe) the test's types do not know.
  const loaded = await page.evaluate("typeof window.axe === 'object'");
  if (!loaded) await page.evaluate(AXE_SOURCE);
  const violations = await page.evaluate("axe.run(document, { resultTypes: ['violations'] }).then((result) => result.violations)") as AxeViolation[];
  const serious = violations.filter((violation) => violation.impact === 'serious' || violation.impact === 'critical');
  if (serious.length > 0) {
    const text = serious.map((v) => `${v.impact} ${v.id}: ${v.help}\n  ${v.nodes.slice(0, 5).map((n) => JSON.stringify(n.target)).join('\n  ')}`).join('\n');
    throw new Error(`accessibility check of ${label} failed:\n${text}`);
  }
}

/**
 * Checks the page at both viewports (accessibility at each, as the layout changes) and writes a
 * screenshot of each: `<name>-1280x800.png` and `<name>-390x844.png`. Leaves the laptop viewport set.
 */
export async function checkAndPhotograph(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SCREENSHOT_DIR, { recursive: true });
  for (const viewport of [...VIEWPORTS].reverse()) {
    await page.setViewportSize({ width: viewport.width, height: viewport.height });
    await assertAccessible(page, `${name} at ${viewport.width}×${viewport.height}`);
    await page.screenshot({ path: path.join(SCREENSHOT_DIR, `${name}-${viewport.width}x${viewport.height}.png`), fullPage: true });
  }
}
