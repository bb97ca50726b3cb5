/**
 * PDF reports: the HTML report printed by headless Chromium, driven by playwright-core. Chromium comes from
 * `--chromium PATH` or the PATH (chromium, chromium-browser, google-chrome, google-chrome-stable); there is
 * no other way to print the report's vectors and print CSS faithfully, so without one the CLI says so
 * (exit 7) instead of writing something else. Every request of the page is refused except data: and
 * about: URLs: the report needs none, and a PDF must not depend on the network.
 */
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { TlabError } from '../engine/errors.js';
import { PDF_PRINT_OPTIONS } from '../engine/report/index.js';

const CHROMIUM_NAMES = ['chromium', 'chromium-browser', 'google-chrome', 'google-chrome-stable'];

export class NoChromium extends Error {}

function executable(path: string): boolean {
  try {
    if (!statSync(path).isFile()) return false;
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** The Chromium to print with: `explicit` when given (it must be an executable file), else the first on PATH. */
export function findChromium(explicit: string | null, path = process.env.PATH ?? ''): string {
  if (explicit !== null) {
    if (executable(explicit)) return explicit;
    throw new NoChromium(`PDF needs Chromium: --chromium ${explicit} is not an executable file`);
  }
  for (const dir of path.split(delimiter).filter(Boolean)) {
    for (const name of CHROMIUM_NAMES) {
      const candidate = join(dir, name);
      if (executable(candidate)) return candidate;
    }
  }
  throw new NoChromium(
    `PDF needs Chromium, and none was found on the PATH (looked for ${CHROMIUM_NAMES.join(', ')}). Install one (Debian: apt-get install chromium) or give --chromium PATH; the html, csv and json formats need nothing.`,
  );
}

/** Prints the report's HTML to PDF bytes with the Chromium at `executablePath`. */
export async function printPdf(html: string, executablePath: string, timeoutMs = 120_000): Promise<Uint8Array> {
  const { chromium } = await import('playwright-core');
  const browser = await chromium.launch({ executablePath, headless: true, timeout: timeoutMs });
  try {
    const context = await browser.newContext({ javaScriptEnabled: true, offline: true });
    const page = await context.newPage();
    page.setDefaultTimeout(timeoutMs);
    await page.route('**/*', (route) => (/^(data|about):/.test(route.request().url()) ? route.continue() : route.abort('blockedbyclient')));
    await page.setContent(html, { waitUntil: 'load' });
    await page.emulateMedia({ media: 'print', colorScheme: 'light' });
    const pdf = await page.pdf({ ...PDF_PRINT_OPTIONS });
    return new Uint8Array(pdf);
  } finally {
    await browser.close();
  }
}

/**
 * The PDF printer of a long-running host (browser mode's server, the desktop app's engine host): Chromium is
 * looked up on the PATH at each export, so installing one needs no restart; without one the export fails as
 * `unsupported`, saying where Chromium is missing.
 */
export function hostPdfPrinter(where: string): (html: string) => Promise<Uint8Array> {
  return async (html) => {
    let exe: string;
    try {
      exe = findChromium(null);
    } catch (err) {
      if (!(err instanceof NoChromium)) throw err;
      throw new TlabError(
        'unsupported',
        `PDF needs Chromium ${where}, and none was found on its PATH (looked for ${CHROMIUM_NAMES.join(', ')})`,
        {
          details: [
            'Install one there (Debian: apt-get install chromium), or export HTML and print it from a browser; HTML, CSV and JSON need nothing.',
          ],
        },
      );
    }
    try {
      // A development dependency: a packaged desktop app does not carry it (Electron's printToPDF is not wired yet).
      await import('playwright-core');
    } catch {
      throw new TlabError(
        'unsupported',
        'PDF printing is not part of this build (playwright-core, which drives Chromium, is not installed): export HTML and print it from a browser',
      );
    }
    return printPdf(html, exe);
  };
}
