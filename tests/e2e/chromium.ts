import { existsSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { chromium, type BrowserContext } from 'playwright-core';

/** Debian's chromium package; CI installs it (.ci/run). Nothing is ever downloaded by the tests. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Why the browser tests cannot run, or null when they can. */
export function missingBrowser(): string | null {
  if (existsSync(CHROMIUM_PATH)) return null;
  return `Chromium is not at ${CHROMIUM_PATH}. Install Debian's package (apt-get update && apt-get install -y chromium), or set CHROMIUM_PATH to another build.`;
}

/**
 * For a suite's before hook: fails it, saying what to install, when the browser is missing (a suite that skipped
 * itself would pass in a run that never opened a page). Does nothing when the browser is there.
 */
export function requireBrowser(): void {
  const missing = missingBrowser();
  if (missing !== null) throw new Error(missing);
}

/** Text as a person reads it: ru-RU puts no-break spaces between digit groups. */
export const plainText = (text: string | null) => (text ?? '').replace(/[\s\u00a0\u202f]+/g, ' ').trim();

export interface HeadlessBrowser {
  readonly context: BrowserContext;
  close(): Promise<void>;
}

/**
 * Headless Chromium on a fresh profile. The flags keep it off the network it has no business with (this
 * machine's network is closed: background fetches would only stall or log): no sync, no component
 * updates, no QUIC, no first-run work. Playwright adds --headless and --no-sandbox itself, and takes the
 * profile folder as the persistent context's directory (it refuses --user-data-dir in args).
 */
export async function launchChromium(): Promise<HeadlessBrowser> {
  const profile = await mkdtemp(path.join(tmpdir(), 'career-portal-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    locale: 'ru-RU',
    viewport: { width: 1024, height: 900 },
  });
  return {
    context,
    close: async () => {
      await context.close();
      await rm(profile, { recursive: true, force: true });
    },
  };
}
