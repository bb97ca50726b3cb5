/**
 * Graph search: a case-insensitive substring over block labels, loop headers, branch and interstate
 * conditions, assignments, node labels, container names, map parameters and tasklet code, in program order.
 * Each hit carries the regions to expand (outermost first) to bring it on screen. No user code is evaluated.
 */
import type { DataflowNode, LoopBlock, RegionBlock, Sdfg, SdfgFile, StateBlock } from '../model/sdfg.js';
import type { RegionId, SearchHit } from './types.js';
import { stateScopes } from './graph-scopes.js';
import { mapParams, type SymText } from './graph-labels.js';

class Limit extends Error {}

/** The line of `text` holding the match, cut to about 80 characters around it. */
function snippet(text: string, at: number, length: number): string {
  const lineStart = text.lastIndexOf('\n', at) + 1;
  const nl = text.indexOf('\n', at);
  const line = text.slice(lineStart, nl < 0 ? text.length : nl);
  const col = at - lineStart;
  const from = Math.max(0, col - 30);
  const to = Math.min(line.length, col + length + 40);
  return `${from > 0 ? '…' : ''}${line.slice(from, to).trim()}${to < line.length ? '…' : ''}`;
}

export function searchElements(file: SdfgFile, sym: SymText, query: string, limit: number): SearchHit[] {
  const q = query.trim().toLowerCase();
  const hits: SearchHit[] = [];
  if (q === '' || limit <= 0) return hits;
  const seen = new Set<string>();
  // A query that is an element id (a JSON path, as the analysis names states) finds that element: how the
  // other views ask where something is.
  const exactId = query.trim().startsWith('$') ? query.trim() : null;

  /** Records a hit on the first field of an element that matches; true when it matched. */
  const test = (
    id: string,
    path: RegionId[],
    label: string,
    kind: SearchHit['kind'],
    fields: Array<[SearchHit['field'], string | null]>,
  ): void => {
    if (exactId !== null) {
      if (id !== exactId) return;
      hits.push({ id, path, label, kind, field: 'id', snippet: id });
      throw new Limit();
    }
    if (seen.has(id)) return;
    for (const [field, text] of fields) {
      if (!text) continue;
      const at = text.toLowerCase().indexOf(q);
      if (at < 0) continue;
      seen.add(id);
      hits.push({ id, path, label, kind, field, snippet: snippet(text, at, q.length) });
      if (hits.length >= limit) throw new Limit();
      return;
    }
  };

  const cfg = (sdfg: Sdfg, block: RegionBlock | LoopBlock, path: RegionId[]): void => {
    for (const b of block.blocks) {
      const inner = [...path, b.jsonPath];
      switch (b.kind) {
        case 'state':
          test(b.jsonPath, path, b.label, 'state', [['label', b.label]]);
          state(sdfg, b, inner);
          break;
        case 'loop':
          test(b.jsonPath, path, b.label, 'loop', [
            ['label', b.label],
            ['condition', [b.init, b.condition, b.update].filter(Boolean).join('\n')],
          ]);
          cfg(sdfg, b, inner);
          break;
        case 'region':
          test(b.jsonPath, path, b.label, 'region', [['label', b.label]]);
          cfg(sdfg, b, inner);
          break;
        case 'conditional':
          test(b.jsonPath, path, b.label, 'conditional', [['label', b.label]]);
          for (const br of b.branches) {
            test(br.body.jsonPath, inner, br.condition ?? 'else', 'branch', [['condition', br.condition]]);
            cfg(sdfg, br.body, [...inner, br.body.jsonPath]);
          }
          break;
        default:
          test(b.jsonPath, path, b.label, b.kind, [['label', b.label]]);
      }
    }
    for (const e of block.edges) {
      const text = [e.condition === '1' ? '' : e.condition, ...e.assignments.map(([k, v]) => `${k} = ${v}`)].filter(Boolean).join('\n');
      test(e.jsonPath, path, text.split('\n')[0] ?? '', 'interstate', [['condition', text]]);
    }
  };

  const state = (sdfg: Sdfg, st: StateBlock, path: RegionId[]): void => {
    const scopes = stateScopes(st);
    for (const n of st.nodes) {
      if (n.kind === 'map_exit' || n.kind === 'consume_exit') continue;
      const chain = scopes.chain(scopes.levelOf(n.id)).map((l) => st.nodes[l]!.jsonPath);
      const at = [...path, ...chain];
      node(sdfg, n, at);
      if (n.kind === 'nested_sdfg' && n.sdfg) cfg(n.sdfg, n.sdfg.body, [...at, n.jsonPath]);
    }
    if (exactId !== null) {
      // Memlets are found by id only (their text is the containers', which the access nodes already match).
      for (const [level, edges] of scopes.edges) {
        const at = [...path, ...scopes.chain(level).map((l) => st.nodes[l]!.jsonPath)];
        for (const { edge } of edges) test(edge.jsonPath, at, edge.memlet.data ?? '', 'memlet', []);
      }
    }
  };

  const node = (_sdfg: Sdfg, n: DataflowNode, path: RegionId[]): void => {
    switch (n.kind) {
      case 'access':
        test(n.jsonPath, path, n.data, 'access', [['data', n.data]]);
        break;
      case 'tasklet':
        test(n.jsonPath, path, n.label, 'tasklet', [
          ['label', n.label],
          ['code', n.code.code],
        ]);
        break;
      case 'map_entry':
        test(n.jsonPath, path, n.map.label, 'map', [
          ['label', n.label],
          ['label', mapParams(n.map.params, n.map.range, sym).join(', ')],
        ]);
        break;
      case 'consume_entry':
        test(n.jsonPath, path, n.label, 'consume', [['label', n.label]]);
        break;
      case 'nested_sdfg':
        test(n.jsonPath, path, n.label, 'nested_sdfg', [['label', n.label]]);
        break;
      case 'library':
        test(n.jsonPath, path, n.label, 'library', [['label', `${n.label}\n${n.className}`]]);
        break;
      default:
        test(n.jsonPath, path, n.label, 'unknown', [['label', n.label]]);
    }
  };

  try {
    cfg(file.root, file.root.body, []);
  } catch (e) {
    if (!(e instanceof Limit)) throw e;
  }
  return hits;
}
