/**
 * An HTML report carries the results it was made from: the service's result reader (the app's and browser
 * mode's "Open result…") and `transient-lab report` read them back exactly, whatever text the result holds.
 */
import { describe, expect, test } from 'vitest';
import { TlabError } from '../../electron/engine/errors.js';
import { embeddedResults, looksLikeHtml, reportHtml } from '../../electron/engine/report/index.js';
import { parseProfileBytes, parseResultDocuments } from '../../electron/host-kit/result-files.js';
import { FIXTURE, labelled, reportInput } from './fixtures.js';

const bytes = (s: string): Uint8Array => new TextEncoder().encode(s);

describe('results embedded in an HTML report', () => {
  test('read back exactly, with their labels, even with markup in the result’s text', async () => {
    const a = labelled('before <b>"A"</b>', FIXTURE.run);
    const b = labelled('after', FIXTURE.rerun);
    a.result.notes.push('</script><script>alert(1)</script><!-- a note -->');
    const { html } = await reportHtml(await reportInput([a, b], false));
    expect(looksLikeHtml(bytes(html))).toBe(true);
    expect(html.includes('<script>alert(1)')).toBe(false);
    const back = parseResultDocuments(bytes(html), 'r.html');
    expect(back.map((x) => x.label)).toEqual(['before <b>"A"</b>', 'after']);
    expect(JSON.parse(JSON.stringify(back.map((x) => x.result)))).toEqual(JSON.parse(JSON.stringify([a.result, b.result])));
    // What "Open result…" reads: the first (reference) result.
    expect(parseProfileBytes(bytes(html), 'r.html').notes.at(-1)).toBe('</script><script>alert(1)</script><!-- a note -->');
  });

  test('an HTML file that is not a report, or whose result is broken, is refused by name', () => {
    const err = (() => {
      try {
        embeddedResults('<!doctype html><p>hello</p>', 'page.html');
      } catch (e) {
        return e as TlabError;
      }
      return null;
    })();
    expect(err).toBeInstanceOf(TlabError);
    expect([err!.kind, err!.file]).toEqual(['input', 'page.html']);
    expect(err!.message).toMatch(/without an embedded Transient Lab result/);
    expect(() => embeddedResults('<html><script type="application/json" id="tlab-result">{"schema":</script>', 'cut.html')).toThrow(
      TlabError,
    );
    const foreign = '<!doctype html><script type="application/json" id="tlab-result">{"schema":"other@1"}</script>';
    expect(() => parseProfileBytes(bytes(foreign), 'f.html')).toThrow(/not a Transient Lab result file: schema "other@1"/);
  });
});
