/**
 * Reading the results back out of an HTML report: `<script type="application/json" id="tlab-result">` holds the
 * first result (`tlab-result-2`, … the others of a comparison), written by html.ts with `<` escaped. Pure: the
 * service's `openResult` and the CLI's `report` sniff a file with `looksLikeHtml` and then call this.
 */
import { TlabError } from '../errors.js';

/** The bytes start (after a BOM and white space) like an HTML document. */
export function looksLikeHtml(bytes: Uint8Array): boolean {
  const head = new TextDecoder('utf-8')
    .decode(bytes.subarray(0, 512))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .slice(0, 64)
    .toLowerCase();
  return head.startsWith('<!doctype html') || head.startsWith('<html') || head.startsWith('<!--') || head.startsWith('<head');
}

const unescapeAttr = (s: string): string =>
  s
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&amp;/g, '&');

export interface EmbeddedResult {
  /** The result's label in the report (`data-label`), or null. */
  label: string | null;
  /** The parsed JSON, not yet validated. */
  doc: unknown;
}

/** Every result embedded in a report, the first (`tlab-result`) first. */
export function embeddedResults(html: string, file: string): EmbeddedResult[] {
  const found: Array<EmbeddedResult & { order: number }> = [];
  const tag = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
  for (let m = tag.exec(html); m; m = tag.exec(html)) {
    const attrs = m[1]!;
    const id = /\bid\s*=\s*"(tlab-result(?:-(\d+))?)"/i.exec(attrs);
    if (!id || !/\btype\s*=\s*"application\/json"/i.test(attrs)) continue;
    const label = /\bdata-label\s*=\s*"([^"]*)"/i.exec(attrs);
    let doc: unknown;
    try {
      doc = JSON.parse(m[2]!);
    } catch (err) {
      throw new TlabError(
        'input',
        `the result embedded in this HTML report (<script id="${id[1]}">) is not valid JSON: ${(err as Error).message}`,
        { file },
      );
    }
    found.push({ label: label ? unescapeAttr(label[1]!) : null, doc, order: id[2] ? Number(id[2]) : 1 });
  }
  if (!found.length) {
    throw new TlabError(
      'input',
      'an HTML file without an embedded Transient Lab result: only HTML reports written by Transient Lab (`transient-lab report … -o report.html`, `profile --report`) can be opened',
      { file },
    );
  }
  return found.sort((a, b) => a.order - b.order).map(({ label, doc }) => ({ label, doc }));
}
