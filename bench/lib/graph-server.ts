/**
 * A trivial bridge for the graph harness page (renderer/src/graph/harness/): serves the built page and answers
 * `open`, `graph`, `search` and `analysis` from the engine, for the graph e2e test and the graph bench. It stands
 * in for `transient-lab serve` and is never shipped: corpus files only, 127.0.0.1 only.
 */
import { createServer, type Server } from 'node:http';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { extname, join, resolve, sep } from 'node:path';
import type { AddressInfo } from 'node:net';
import { corpusDir, packageRoot } from '../../electron/engine/paths.js';
import { readSdfgFile } from '../../electron/engine/sdfg/index.js';
import { graphRegion, searchGraph } from '../../electron/engine/view/graph.js';
import { analyze } from '../../electron/engine/analysis/index.js';
import { buildAnalysisView } from '../../electron/engine/view/analysis.js';
import type { SdfgFile } from '../../electron/engine/model/sdfg.js';
import { TlabError } from '../../electron/engine/errors.js';

export const HARNESS_DIR = join(packageRoot(), 'dist', 'graph-harness');

const TYPES: Record<string, string> = {
  '.html': 'text/html; charset=utf-8',
  '.js': 'text/javascript; charset=utf-8',
  '.css': 'text/css; charset=utf-8',
  '.map': 'application/json',
  '.json': 'application/json',
};

export interface HarnessServer {
  url: string;
  /** Engine time per request (ms), by endpoint, for the bench. */
  timings: Array<{ endpoint: string; ms: number; bytes: number }>;
  close(): Promise<void>;
}

export async function startHarnessServer(): Promise<HarnessServer> {
  if (!existsSync(join(HARNESS_DIR, 'index.html')))
    throw new Error(`the graph harness is not built (${HARNESS_DIR}); run: npx vite build --config renderer/graph-harness.config.ts`);
  const docs = new Map<string, SdfgFile>();
  const analyses = new Map<string, object>();
  const timings: HarnessServer['timings'] = [];
  let seq = 0;

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const send = (status: number, body: string, type = 'application/json'): void => {
        res.writeHead(status, { 'content-type': type, 'cache-control': 'no-store' });
        res.end(body);
      };
      const doc = (): SdfgFile => {
        const f = docs.get(url.searchParams.get('doc') ?? '');
        if (!f) throw new TlabError('usage', 'unknown doc');
        return f;
      };
      const timed = (endpoint: string, f: () => unknown): void => {
        const t0 = performance.now();
        const body = JSON.stringify(f());
        timings.push({ endpoint, ms: performance.now() - t0, bytes: body.length });
        send(200, body);
      };
      try {
        switch (url.pathname) {
          case '/api/open': {
            const name = url.searchParams.get('file') ?? '';
            if (!/^[^/\\]+\.sdfgz?$/.test(name)) throw new TlabError('usage', `not a corpus file name: ${name}`);
            const t0 = performance.now();
            const file = await readSdfgFile(join(corpusDir(), name));
            const parseMs = performance.now() - t0;
            const id = `d${++seq}`;
            // Keep the last document only: the big corpus files hold hundreds of MB each.
            docs.clear();
            analyses.clear();
            docs.set(id, file);
            timings.push({ endpoint: 'open', ms: parseMs, bytes: 0 });
            return send(200, JSON.stringify({ doc: id, parseMs }));
          }
          case '/api/graph':
            return timed('graph', () => graphRegion(doc(), url.searchParams.get('region') || null));
          case '/api/search':
            return timed('search', () => searchGraph(doc(), url.searchParams.get('q') ?? '', Number(url.searchParams.get('limit') ?? 50)));
          case '/api/analysis': {
            const key = url.searchParams.get('doc') ?? '';
            let a = analyses.get(key);
            if (!a) {
              // What the contract's `analyze` answers: the AnalysisView (the graph reads its transient table).
              a = buildAnalysisView(analyze(doc(), { symbols: new Map(), defaultSymbol: 64n, target: null }));
              analyses.set(key, a);
            }
            return send(200, JSON.stringify(a));
          }
          default: {
            const rel = url.pathname === '/' ? 'index.html' : decodeURIComponent(url.pathname.slice(1));
            const path = resolve(HARNESS_DIR, rel);
            if (!path.startsWith(HARNESS_DIR + sep) || !existsSync(path) || !statSync(path).isFile())
              return send(404, 'not found', 'text/plain');
            return send(200, readFileSync(path, 'utf8'), TYPES[extname(path)] ?? 'application/octet-stream');
          }
        }
      } catch (err) {
        send(err instanceof TlabError ? 400 : 500, JSON.stringify({ error: err instanceof TlabError ? err.describe() : String(err) }));
      }
    })();
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/`,
    timings,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}
