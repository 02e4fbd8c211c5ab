import { existsSync } from 'node:fs';
import { type Browser, chromium } from 'playwright-core';

// A real headless Chromium for browser tests, driven by playwright-core. Playwright's own
// browser download does not work here (offline CI), so the tests use the distribution's
// Chromium: `.ci/run` installs Debian's `chromium` package.

const CANDIDATES = ['/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'];

/** CHROMIUM_PATH when set (a wrong one fails at launch, loudly), else the first candidate installed. */
export const chromiumPath = (): string | undefined => process.env.CHROMIUM_PATH || CANDIDATES.find(existsSync);

export const NO_CHROMIUM = [
  'Browser tests SKIPPED: no Chromium found',
  `(looked for $CHROMIUM_PATH, ${CANDIDATES.join(', ')}).`,
  'Install one to run them: `apt-get install chromium` (Debian’s package, as .ci/run does),',
  'or point CHROMIUM_PATH at a Chromium or Chrome binary.',
].join(' ');

export function launchChromium(executablePath: string): Promise<Browser> {
  return chromium.launch({
    executablePath,
    headless: true,
    // CI runs as root in a container, where Chromium's sandbox cannot start; the page
    // under test is our own.
    args: ['--no-sandbox', '--disable-dev-shm-usage'],
  });
}
