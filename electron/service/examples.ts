/**
 * The bundled examples (assets/examples): every .sdfg/.sdfgz there, described by the table in its README
 * (program, and the symbol values to try it with), then every workload file (`transient-lab/workload@1`).
 */
import { readdir, readFile } from 'node:fs/promises';
import { extname, join } from 'node:path';
import { sniffWorkload } from '../engine/workload/schema.js';
import type { ExampleInfo, SymbolValues } from '../ipc/contract.js';

export interface Example extends ExampleInfo {
  path: string;
}

/** `| \`hdiff.sdfg\` | horizontal diffusion … | … | … | \`I=128,J=128,K=80\` |` */
function readmeRows(text: string): Map<string, { description: string; symbols: SymbolValues }> {
  const out = new Map<string, { description: string; symbols: SymbolValues }>();
  for (const line of text.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    const file = /^`([^`]+\.sdfgz?)`$/.exec(cells[1] ?? '')?.[1];
    if (!file) continue;
    const symbols: SymbolValues = {};
    const demo = /`([^`]*)`/.exec(cells[cells.length - 2] ?? '')?.[1] ?? '';
    for (const part of demo.split(',')) {
      const m = /^\s*([A-Za-z_]\w*)\s*=\s*(-?\d+)\s*$/.exec(part);
      if (m) symbols[m[1]!] = m[2]!;
    }
    out.set(file, { description: cells[2] ?? '', symbols });
  }
  return out;
}

export async function listExamples(dir: string): Promise<Example[]> {
  let all: string[];
  try {
    all = (await readdir(dir)).sort();
  } catch {
    return [];
  }
  const names = all.filter((n) => ['.sdfg', '.sdfgz'].includes(extname(n).toLowerCase()));
  const rows = readmeRows(await readFile(join(dir, 'README.md'), 'utf8').catch(() => ''));
  const sdfgs: Example[] = names.map((name) => {
    const id = name.replace(/\.sdfgz?$/i, '').replace(/[^A-Za-z0-9_-]/g, '_');
    const row = rows.get(name);
    return { id, title: id, description: row?.description ?? name, symbols: row?.symbols ?? {}, path: join(dir, name) };
  });
  // Workloads (docs/workload.md) after the SDFGs: JSON files whose first bytes name the workload schema.
  const workloads: Example[] = [];
  for (const name of all.filter((n) => extname(n).toLowerCase() === '.json')) {
    const head = await readFile(join(dir, name), 'utf8').then(
      (t) => t.slice(0, 4096),
      () => '',
    );
    if (!sniffWorkload(head)) continue;
    const id = name.replace(/\.json$/i, '').replace(/[^A-Za-z0-9_-]/g, '_');
    const programs =
      /"sequence"\s*:\s*\[([^\]]*)\]/
        .exec(head)?.[1]
        ?.match(/"[^"]+"/g)
        ?.map((k) => k.slice(1, -1)) ?? [];
    const description = `a workload: ${programs.length ? programs.join(' → ') : 'several programs'} sharing one workspace`;
    workloads.push({ id, title: id, description, symbols: {}, path: join(dir, name), kind: 'workload' });
  }
  return [...sdfgs, ...workloads];
}
