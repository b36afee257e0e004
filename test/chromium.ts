/**
 * Debian's Chromium for browser tests, driven by playwright-core: whether it
 * is there, and one way to start it headless (the flags the machine's notes
 * give). .ci/run installs the package.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import type { Browser } from 'playwright-core';
import { requireService, type RequiredService } from './services.js';

export const CHROMIUM = '/usr/bin/chromium';

/** Chromium answers `--version`; else why not. */
async function chromiumProbe(): Promise<string | undefined> {
  if (!existsSync(CHROMIUM)) return `${CHROMIUM} is missing (apt-get install -y chromium)`;
  return new Promise((resolve) => {
    execFile(CHROMIUM, ['--version'], { timeout: 20_000 }, (error) => resolve(error ? `${CHROMIUM} --version failed: ${error.message}` : undefined));
  });
}

/** Browser tests go through its `describe`: skipped where Chromium is missing, failed under CI=true. */
export function requireChromium(): Promise<RequiredService> {
  return requireService('Chromium', chromiumProbe);
}

/** Headless Chromium: close it when done. */
export async function launchChromium(): Promise<Browser> {
  const { chromium } = await import('playwright-core');
  return chromium.launch({
    executablePath: CHROMIUM,
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync', '--no-first-run'],
  });
}
