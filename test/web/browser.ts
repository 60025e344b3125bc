/**
 * A real browser for the web application's tests: Debian's Chromium driven by playwright-core with a
 * fresh profile, the service listening on a loopback port, console errors collected per page, and
 * screenshots written to test/output/web/ (gitignored) for a person to look at.
 */
import { existsSync, mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, type RequestListener, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium, type BrowserContext, type Page } from 'playwright-core';
import { PROJECT_ROOT } from '../../src/plugins.js';

/** Debian's Chromium unless CHROMIUM_PATH names another build. */
export const CHROMIUM_PATH = process.env.CHROMIUM_PATH || '/usr/bin/chromium';
export const OUTPUT_DIR = join(PROJECT_ROOT, 'test', 'output', 'web');

/** The launch flags of the design's stack notes (headless comes from playwright's own flag). */
const CHROMIUM_ARGS = ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

export interface Browser {
  context: BrowserContext;
  close(): Promise<void>;
}

/** Chromium with a fresh --user-data-dir, 1280x800, downloads accepted. */
export async function launchBrowser(): Promise<Browser> {
  if (!existsSync(CHROMIUM_PATH)) {
    throw new Error(`Chromium is not installed at ${CHROMIUM_PATH}; install it with "apt-get install chromium" (.ci/run does this when it is missing) or set CHROMIUM_PATH`);
  }
  const profile = mkdtempSync(join(tmpdir(), 'cpet-chromium-'));
  const context = await chromium.launchPersistentContext(profile, {
    executablePath: CHROMIUM_PATH,
    headless: true,
    args: CHROMIUM_ARGS,
    viewport: { width: 1280, height: 800 },
    acceptDownloads: true,
  });
  return {
    context,
    close: async () => {
      await context.close();
      rmSync(profile, { recursive: true, force: true });
    },
  };
}

export interface Listening {
  url: string;
  /** Every request the server saw, with the answer's status once it is sent. */
  log: { method: string; path: string; status: number; headers: IncomingMessage['headers'] }[];
  close(): Promise<void>;
}

/** Serves a request handler (the service's express app, or a page) on 127.0.0.1 at a free port. */
export async function listen(handler: RequestListener): Promise<Listening> {
  const log: Listening['log'] = [];
  const server: Server = createServer((req, res) => {
    res.on('finish', () => log.push({ method: req.method ?? '', path: req.url ?? '', status: res.statusCode, headers: req.headers }));
    handler(req, res);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    log,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The browser keeps idle connections open; close would otherwise wait for them to time out.
        server.closeAllConnections();
      }),
  };
}

/** Console errors, uncaught exceptions and CSP violations of a page, as text. */
export function consoleErrors(page: Page): string[] {
  const errors: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  page.on('pageerror', (e) => errors.push(`uncaught: ${e.message}`));
  return errors;
}

/** Writes a screenshot of the page (or of one element) under test/output/web/. */
export async function screenshot(page: Page, name: string, selector?: string): Promise<string> {
  mkdirSync(OUTPUT_DIR, { recursive: true });
  const path = join(OUTPUT_DIR, `${name}.png`);
  if (selector) await page.locator(selector).screenshot({ path });
  else await page.screenshot({ path, fullPage: true });
  return path;
}
