/**
 * Transient Lab benchmark (`npm run bench`). Runs a list of sections and writes
 * bench/results/latest.json (`transient-lab/bench@1`). Sections are independent: add one to `SECTIONS`
 * (e.g. the profile engineer's `profile` section) and it gets its own key under `sections`.
 *
 * Usage: node --expose-gc dist/bench/run.js [SECTION...]   (default: all sections)
 */
import { fork } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { cpus, totalmem, platform, release, arch } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { corpusDir, packageRoot } from '../electron/engine/paths.js';
import type { FileMeasurement } from './one-file.js';
import { packingSection } from './packing.js';
import { profileSection } from './profile.js';
import { graphSection } from './graph.js';
import { codegenSection } from './codegen.js';
import { fuzzSection } from './fuzz.js';
import { coverageSection } from './coverage.js';
import { constructsSection } from './constructs.js';
import { memviewsSection } from './memviews.js';
import { runnerVsBareSection } from './runner-vs-bare.js';
import { interposeSection } from './interpose.js';
import { manyCallsSection } from './many-calls.js';
import { workloadSection } from './workload.js';
import { rendererSection } from './renderer.js';
import type { BenchSection } from './section.js';

const HERE = dirname(fileURLToPath(import.meta.url));
const VELOCITY = 'spcl__icon-dace__icon-model__sdfgs__velocity_tendencies_autoopt_1.sdfgz';

function measureInChild(path: string): Promise<FileMeasurement> {
  return new Promise((resolvePromise, reject) => {
    const child = fork(join(HERE, 'one-file.js'), [path], { stdio: ['ignore', 'inherit', 'inherit', 'ipc'] });
    let result: FileMeasurement | null = null;
    child.on('message', (m) => (result = m as FileMeasurement));
    child.on('error', reject);
    // A crashing child becomes an error row: one bad file must not hide the numbers of all the others.
    child.on('exit', (code, signal) =>
      resolvePromise(
        result ?? {
          file: path.split('/').pop()!,
          diskBytes: 0,
          jsonBytes: 0,
          gunzipMs: NaN,
          jsonParseMs: NaN,
          parseMs: NaN,
          analyseMs: NaN,
          transients: 0,
          steps: 0,
          peakRssMiB: NaN,
          error: `measuring process exited with ${signal ?? `code ${code}`}`,
        },
      ),
    );
  });
}

const ms = (v: number): string => (Number.isFinite(v) ? v.toFixed(1) : '-');

export const analysisSection: BenchSection = {
  name: 'analysis',
  description: 'parse + analyse every corpus file (--default-symbol 64), one child process per file',
  async run() {
    const dir = corpusDir();
    const names = readdirSync(dir)
      .filter((f) => /\.sdfgz?$/.test(f))
      .sort();
    const rows: Array<FileMeasurement & { mbPerS: number }> = [];
    for (const name of names) {
      const m = await measureInChild(join(dir, name));
      rows.push({ ...m, mbPerS: m.jsonBytes / 1e6 / ((m.parseMs + m.analyseMs) / 1000) });
    }
    const ok = rows.filter((r) => !r.error);
    const totalParseAnalyse = ok.reduce((s, r) => s + r.parseMs + r.analyseMs, 0);
    const totalJsonParse = ok.reduce((s, r) => s + r.jsonParseMs, 0);
    const totalGunzip = ok.reduce((s, r) => s + r.gunzipMs, 0);
    const totalParse = ok.reduce((s, r) => s + r.parseMs, 0);
    const velocity = rows.find((r) => r.file === VELOCITY) ?? null;
    const summary = {
      files: rows.length,
      failed: rows.filter((r) => r.error).map((r) => ({ file: r.file, error: r.error })),
      totalJsonMB: ok.reduce((s, r) => s + r.jsonBytes, 0) / 1e6,
      totalParseAnalyseMs: totalParseAnalyse,
      totalJsonParseMs: totalJsonParse,
      totalGunzipMs: totalGunzip,
      totalParseMs: totalParse,
      // Decompression is zlib's cost, identical for any reader of a .sdfgz; the parser is judged on the rest.
      parserRatioToJsonParse: (totalParse - totalGunzip) / totalJsonParse,
      endToEndRatio: totalParseAnalyse / (totalGunzip + totalJsonParse),
      ratioToJsonParse: totalParseAnalyse / totalJsonParse,
      ratioTarget: 2,
      velocityTendencies: velocity
        ? {
            file: velocity.file,
            jsonMB: velocity.jsonBytes / 1e6,
            parseMs: velocity.parseMs,
            analyseMs: velocity.analyseMs,
            totalMs: velocity.parseMs + velocity.analyseMs,
            targetMs: 3000,
            peakRssMiB: velocity.peakRssMiB,
          }
        : null,
      maxPeakRssMiB: Math.max(...ok.map((r) => r.peakRssMiB)),
    };
    const biggest = [...ok].sort((a, b) => b.jsonBytes - a.jsonBytes).slice(0, 8);
    const lines = [
      `${'file'.padEnd(52)} ${'JSON MB'.padStart(8)} ${'JSON.parse'.padStart(10)} ${'parse'.padStart(8)} ${'analyse'.padStart(8)} ${'MB/s'.padStart(7)} ${'RSS MiB'.padStart(8)}`,
      ...biggest.map(
        (r) =>
          `${r.file.slice(0, 52).padEnd(52)} ${(r.jsonBytes / 1e6).toFixed(1).padStart(8)} ${ms(r.jsonParseMs).padStart(10)} ${ms(r.parseMs).padStart(8)} ${ms(r.analyseMs).padStart(8)} ${r.mbPerS.toFixed(1).padStart(7)} ${r.peakRssMiB.toFixed(0).padStart(8)}`,
      ),
      `all ${rows.length} files: parse ${ms(totalParse)} ms (of which gunzip ${ms(totalGunzip)} ms) + analyse ${ms(totalParseAnalyse - totalParse)} ms; bare JSON.parse ${ms(totalJsonParse)} ms`,
      `  parser without gunzip vs bare JSON.parse: ${summary.parserRatioToJsonParse.toFixed(2)}× (target ≤ 2×)`,
      `  parse+analyse vs gunzip+JSON.parse:       ${summary.endToEndRatio.toFixed(2)}×; vs JSON.parse alone: ${summary.ratioToJsonParse.toFixed(2)}×`,
      velocity
        ? `velocity_tendencies (${(velocity.jsonBytes / 1e6).toFixed(0)} MB JSON): parse ${ms(velocity.parseMs)} ms + analyse ${ms(velocity.analyseMs)} ms = ${ms(velocity.parseMs + velocity.analyseMs)} ms (target < 3000 ms), peak RSS ${velocity.peakRssMiB.toFixed(0)} MiB`
        : 'velocity_tendencies: not in the corpus',
      ...(summary.failed.length ? [`FAILED: ${summary.failed.map((f) => `${f.file}: ${f.error}`).join('; ')}`] : []),
    ];
    return { result: { description: this.description, files: rows, summary }, summary: lines };
  },
};

/** Every section `npm run bench` knows; later sections (profile, …) append themselves here. */
export const SECTIONS: BenchSection[] = [
  analysisSection,
  profileSection,
  graphSection,
  memviewsSection,
  rendererSection,
  packingSection,
  codegenSection,
  runnerVsBareSection,
  interposeSection,
  manyCallsSection,
  workloadSection,
  fuzzSection,
  coverageSection,
  constructsSection,
];

/** The sections of an earlier latest.json, or none when there is none or it cannot be read as a bench report. */
function previousSections(path: string): Record<string, object> {
  if (!existsSync(path)) return {};
  try {
    const old = JSON.parse(readFileSync(path, 'utf8')) as { schema?: unknown; sections?: unknown };
    return old.schema === 'transient-lab/bench@1' && old.sections && typeof old.sections === 'object'
      ? (old.sections as Record<string, object>)
      : {};
  } catch {
    return {};
  }
}

export async function runBench(selected: string[]): Promise<void> {
  const unknown = selected.filter((s) => !SECTIONS.some((x) => x.name === s));
  if (unknown.length) throw new Error(`unknown bench section(s): ${unknown.join(', ')}; known: ${SECTIONS.map((s) => s.name).join(', ')}`);
  const chosen = selected.length ? SECTIONS.filter((s) => selected.includes(s.name)) : SECTIONS;
  const cpu = cpus();
  const report = {
    schema: 'transient-lab/bench@1',
    createdAt: new Date().toISOString(),
    machine: {
      platform: platform(),
      release: release(),
      arch: arch(),
      cpu: cpu[0]?.model ?? 'unknown',
      cores: cpu.length,
      memoryGiB: totalmem() / 2 ** 30,
      node: process.version,
    },
    sections: {} as Record<string, object>,
  };
  const out = resolve(packageRoot(), 'bench', 'results', 'latest.json');
  // A run of some sections keeps the other sections' last results (their own createdAt is the file's, older).
  const previous = previousSections(out);
  for (const section of chosen) {
    process.stdout.write(`== ${section.name}: ${section.description}\n`);
    const { result, summary } = await section.run();
    report.sections[section.name] = result;
    process.stdout.write(`${summary.join('\n')}\n`);
  }
  mkdirSync(dirname(out), { recursive: true });
  const merged = { ...report, sections: { ...previous, ...report.sections } };
  writeFileSync(out, `${JSON.stringify(merged, null, 2)}\n`);
  process.stdout.write(`wrote ${out}\n`);
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  runBench(process.argv.slice(2)).catch((err) => {
    process.stderr.write(`bench: ${(err as Error).stack ?? String(err)}\n`);
    process.exitCode = 1;
  });
}
