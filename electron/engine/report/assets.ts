/**
 * What the HTML writer needs from the renderer, built by `npm run build:report` (renderer/vite.report.config.ts)
 * into dist/report/: the report runtime (inlined into every report) and `renderSVG` (the chart modules as an ES
 * module without DOM). The engine never imports renderer sources; it loads these built files once, on the
 * first report, and hands them to `renderHtml`.
 */
import { readFileSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { TlabError } from '../errors.js';
import { packageRoot } from '../paths.js';
import { reportCspSources, type HtmlAssets, type SvgRenderer } from './html.js';

function reportAssetsDir(): string {
  return join(packageRoot(), 'dist', 'report');
}

let cached: Promise<HtmlAssets> | null = null;

async function load(dir: string): Promise<HtmlAssets> {
  const runtimePath = join(dir, 'report-runtime.js');
  const svgPath = join(dir, 'charts-svg.js');
  let runtime: string;
  let mod: { renderSVG?: SvgRenderer };
  try {
    runtime = await readFile(runtimePath, 'utf8');
    mod = (await import(pathToFileURL(svgPath).href)) as { renderSVG?: SvgRenderer };
  } catch (cause) {
    throw new TlabError('build', `the report's chart bundles are missing (${(cause as Error).message}): run \`npm run build:report\``, {
      file: dir,
      cause,
    });
  }
  if (typeof mod.renderSVG !== 'function')
    throw new TlabError('build', 'charts-svg.js does not export renderSVG: run `npm run build:report`', { file: svgPath });
  return { runtime, renderSVG: mod.renderSVG };
}

/** The built report assets (loaded once per process). */
export function loadReportAssets(dir = reportAssetsDir()): Promise<HtmlAssets> {
  if (dir !== reportAssetsDir()) return load(dir);
  cached ??= load(dir).catch((err: unknown) => {
    cached = null;
    throw err;
  });
  return cached;
}

/**
 * CSP sources a host adds to its own `script-src` and `style-src` so that the export preview (an iframe whose
 * srcdoc inherits the host page's policy) may run the report's runtime and apply its stylesheet, and nothing
 * else: `{ script: "'sha256-…'", style: "'sha256-…'" }`, or null when the bundles are not built.
 */
export function reportPreviewCspSources(dir = reportAssetsDir()): { script: string; style: string } | null {
  try {
    return reportCspSources(readFileSync(join(dir, 'report-runtime.js'), 'utf8'));
  } catch {
    return null;
  }
}

let version: string | null = null;

/** Transient Lab's version (package.json). */
export function transientLabVersion(): string {
  if (version) return version;
  try {
    const pkg = JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version?: unknown };
    version = typeof pkg.version === 'string' ? pkg.version : 'unknown';
  } catch {
    version = 'unknown';
  }
  return version;
}
