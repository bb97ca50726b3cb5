/**
 * What the shared contract suite runs against: a service over a scratch root folder (a copy of an example, a
 * malformed SDFG, links leading out, result files) plus the bundled examples, with the real Node runner.
 * Every transport under test wraps the same kind of service, so the suite tests the transport, not the policy.
 */
import { copyFile, mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { corpusDir, examplesDir } from '../../electron/engine/paths.js';
import { probeDevices } from '../../electron/runner/devices.js';
import { NodeRunnerHost } from '../../electron/runner/host-node.js';
import { descendants } from '../../electron/cli/children.js';
import { RootsFileAccess } from '../../electron/host-kit/file-access.js';
import { TransientLabService, type ServiceOptions } from '../../electron/service/index.js';

export interface Scratch {
  /** First root: relative paths resolve here. */
  root: string;
  /** A folder next to the root, outside every root. */
  outside: string;
  remove(): Promise<void>;
}

/** The malformed SDFG: a state whose node list is not a list (the parser names `$.nodes[0].nodes`). */
const BROKEN_SDFG = JSON.stringify({
  type: 'SDFG',
  attributes: { name: 'broken', _arrays: {} },
  nodes: [{ type: 'SDFGState', label: 's0', id: 0, nodes: 7, edges: [] }],
  edges: [],
  start_block: 0,
});

/** 3 nested SDFGs in 2 levels, 91% of the JSON (read from ../shared/corpus at test time, never kept here). */
const NESTED_CORPUS_FILE = 'spcl__dace__tests__sdfg_corpus__nestinger_1.sdfgz';

const DACE_CMAKE_CACHE =
  'CMAKE_BUILD_TYPE:STRING=Release\nCMAKE_CXX_FLAGS:STRING=-fPIC\nCMAKE_CXX_FLAGS_RELEASE:STRING=-O3\nCMAKE_CXX_COMPILER:FILEPATH=/usr/bin/g++\nDACE_VERSION:STRING=1.0.2\n';

export async function makeScratch(): Promise<Scratch> {
  const base = await mkdtemp(join(tmpdir(), 'tlab-contract-'));
  const root = join(base, 'root');
  const outside = join(base, 'outside');
  await mkdir(join(root, 'sub'), { recursive: true });
  await mkdir(outside);
  await copyFile(join(examplesDir(), 'hdiff.sdfg'), join(root, 'hdiff-copy.sdfg'));
  await copyFile(join(examplesDir(), 'chain.sdfg'), join(root, 'sub', 'chain.sdfg'));
  await writeFile(join(root, 'broken.sdfg'), BROKEN_SDFG);
  // Nested SDFGs, pretty-printed as DaCe writes them: opens as a preview under the suite's low threshold.
  await copyFile(join(corpusDir(), NESTED_CORPUS_FILE), join(root, 'nested.sdfgz'));
  await writeFile(join(root, '.hidden.sdfg'), '{}');
  await writeFile(join(root, 'notes.json'), '{"hello": "not a result"}\n');
  await copyFile(join(examplesDir(), 'vadv.sdfg'), join(outside, 'secret.sdfg'));
  await symlink(join(outside, 'secret.sdfg'), join(root, 'link-out.sdfg'));
  await symlink(outside, join(root, 'dir-out'));
  await symlink(join(root, 'hdiff-copy.sdfg'), join(root, 'link-in.sdfg'));
  // A DaCe build folder as DaCe lays it out (docs/dace-folders.md; no library: listing and opening need none),
  // and a folder holding only an SDFG named program.sdfg (not a build).
  const dace = join(root, '.dacecache', 'hdiff');
  for (const sub of ['build', 'include', 'src/cpu']) await mkdir(join(dace, sub), { recursive: true });
  await copyFile(join(examplesDir(), 'hdiff.sdfg'), join(dace, 'program.sdfg'));
  await writeFile(join(dace, 'build', 'CMakeCache.txt'), DACE_CMAKE_CACHE);
  await mkdir(join(root, '.dacecache', 'only-sdfg'));
  await copyFile(join(examplesDir(), 'hdiff.sdfg'), join(root, '.dacecache', 'only-sdfg', 'program.sdfg'));
  return { root, outside, remove: () => rm(base, { recursive: true, force: true }) };
}

export async function makeService(scratch: Scratch, extra: Partial<ServiceOptions> = {}): Promise<TransientLabService> {
  return TransientLabService.create({
    host: 'browser',
    files: await RootsFileAccess.create([scratch.root, examplesDir()]),
    createRunner: () => new NodeRunnerHost(),
    // The hosts' own probe (serve and the engine host pass the same): a child that loads the addon.
    devices: () => probeDevices(),
    openAtStart: [join(scratch.root, 'hdiff-copy.sdfg')],
    // Previews start at 24 MiB; here any file with nested SDFGs gets one (the examples have none).
    previewMinJsonBytes: 0,
    ...extra,
  });
}

export function exampleBytes(name: string): Uint8Array {
  return new Uint8Array(readFileSync(join(examplesDir(), name)));
}

export async function fileBytes(path: string): Promise<Uint8Array> {
  return new Uint8Array(await readFile(path));
}

/** Live runner children of this process (the host under test runs here, whatever the transport). */
export function runnerChildren(): number[] {
  return descendants(process.pid).filter((pid) => {
    try {
      return readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('runner-entry');
    } catch {
      return false;
    }
  });
}

/** Polls until `check` holds (a killed child takes a moment to be reaped). */
export async function eventually(check: () => boolean, ms = 5000): Promise<boolean> {
  const end = Date.now() + ms;
  while (Date.now() < end) {
    if (check()) return true;
    await new Promise((r) => setTimeout(r, 50));
  }
  return check();
}
