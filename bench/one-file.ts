/**
 * Measures one SDFG file in a process of its own, so that peak RSS belongs to this file alone:
 * bare JSON.parse of the (decompressed) text, parse into the model, analysis. Sends one result message.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { analyze } from '../electron/engine/analysis/index.js';
import { parseSdfgBytes } from '../electron/engine/sdfg/index.js';

export interface FileMeasurement {
  file: string;
  diskBytes: number;
  jsonBytes: number;
  /** Bare gunzip of the file (0 for plain JSON): paid by any reader of a .sdfgz. */
  gunzipMs: number;
  /** Bare JSON.parse of the decompressed text (the floor for turning text into objects). */
  jsonParseMs: number;
  /** Our whole parse from file bytes: gunzip + UTF-8 decode + JSON.parse + normalisation into the model. */
  parseMs: number;
  analyseMs: number;
  transients: number;
  steps: number;
  peakRssMiB: number;
  error: string | null;
}

function bestOf(runs: number, work: () => void): number {
  let best = Infinity;
  for (let i = 0; i < runs; i++) {
    const t0 = performance.now();
    work();
    best = Math.min(best, performance.now() - t0);
  }
  return best;
}

function measure(path: string): FileMeasurement {
  const bytes = readFileSync(path);
  const gz = bytes[0] === 0x1f && bytes[1] === 0x8b;
  const text = (gz ? gunzipSync(bytes) : bytes).toString('utf8');
  const gunzipMs = gz ? bestOf(1, () => gunzipSync(bytes)) : 0;
  const jsonBytes = Buffer.byteLength(text);
  // Small files are timed as the best of a few runs: one run is below timer noise.
  const runs = jsonBytes < 1 << 20 ? 5 : jsonBytes < 16 << 20 ? 3 : 1;
  const base = { file: path.split('/').pop()!, diskBytes: bytes.length, jsonBytes, gunzipMs };
  const jsonParseMs = bestOf(runs, () => JSON.parse(text));
  let parsed: ReturnType<typeof parseSdfgBytes> | null = null;
  try {
    const parseMs = bestOf(runs, () => (parsed = parseSdfgBytes(bytes, path)));
    const file = parsed!;
    let transients = 0;
    let steps = 0;
    const analyseMs = bestOf(runs, () => {
      const a = analyze(file, { symbols: new Map(), defaultSymbol: 64n, target: null });
      transients = a.transients.length;
      steps = a.steps.length;
    });
    return { ...base, jsonParseMs, parseMs, analyseMs, transients, steps, peakRssMiB: process.resourceUsage().maxRSS / 1024, error: null };
  } catch (err) {
    return {
      ...base,
      jsonParseMs,
      parseMs: NaN,
      analyseMs: NaN,
      transients: 0,
      steps: 0,
      peakRssMiB: process.resourceUsage().maxRSS / 1024,
      error: (err as Error).message,
    };
  }
}

const path = process.argv[2];
if (path) {
  const result = measure(path);
  if (process.send) process.send(result);
  else process.stdout.write(`${JSON.stringify(result)}\n`);
}
