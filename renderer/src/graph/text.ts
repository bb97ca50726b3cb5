/**
 * The text every graph element shows, decided once here and used both to size boxes (layout worker) and to
 * draw them (main thread), so the two always agree. Pure: no DOM.
 */
import type { GraphNode, GraphSummary } from '../../../electron/engine/view/public.js';
import { FONT_MONO, FONT_SANS } from '../theme/index.js';

export type FontRole = 'title' | 'body' | 'mono' | 'small';

export const FONT_PX: Record<FontRole, number> = { title: 13, body: 12, mono: 11.5, small: 11 };
export const LINE_H: Record<FontRole, number> = { title: 17, body: 16, mono: 15, small: 14 };

export function font(role: FontRole): string {
  switch (role) {
    case 'title':
      return `600 ${FONT_PX.title}px ${FONT_SANS}`;
    case 'body':
      return `${FONT_PX.body}px ${FONT_SANS}`;
    case 'mono':
      return `${FONT_PX.mono}px ${FONT_MONO}`;
    case 'small':
      return `${FONT_PX.small}px ${FONT_SANS}`;
  }
}

export interface Line {
  text: string;
  role: FontRole;
}

/** Measures one line of text in CSS pixels (canvas measureText in the browser, an estimate in tests). */
export type Measure = (text: string, role: FontRole) => number;

/** Average glyph widths of the fonts above: good enough to size boxes where no canvas exists (tests). */
export const estimateMeasure: Measure = (text, role) => text.length * FONT_PX[role] * (role === 'mono' ? 0.6 : 0.55);

const MAX_CHARS = 64;

function clip(text: string, max = MAX_CHARS): string {
  return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`;

/** `12 states · 340 nodes · 3 maps`, only the counts that say something for this kind of element. */
export function summaryText(node: GraphNode, s: GraphSummary): string {
  const parts: string[] = [];
  const cf = node.kind !== 'state' && node.kind !== 'map' && node.kind !== 'consume';
  if (cf && s.states > 0) parts.push(plural(s.states, 'state'));
  if (s.loops > 0 && cf) parts.push(plural(s.loops, 'loop'));
  if (s.sdfgs > 0) parts.push(plural(s.sdfgs, 'nested SDFG'));
  if (s.nodes > 0) parts.push(plural(s.nodes, 'node'));
  if (!cf && s.maps > 0) parts.push(plural(s.maps, 'map'));
  if (parts.length === 0) parts.push(node.kind === 'state' ? 'empty' : 'no states');
  // A preview has not read the nested SDFGs inside yet: these counts are lower bounds.
  return s.partial ? `${parts.join(' · ')} · reading…` : parts.join(' · ');
}

/** A loop's header in C-like form: `for i = 0; i < N; i = i + 1`, `while cond`, `do … while cond`. */
export function loopHeader(n: Extract<GraphNode, { kind: 'loop' }>): string {
  const cond = n.condition ?? 'true';
  if (n.inverted) return `do … while ${cond}`;
  if (n.init === null && n.update === null) return `while ${cond}`;
  return `for ${[n.init ?? '', cond, n.update ?? ''].join('; ')}`;
}

/** Lines inside a collapsed (or leaf) node, top to bottom. Memory badges are drawn separately. */
export function nodeLines(node: GraphNode): Line[] {
  switch (node.kind) {
    case 'state':
      return [
        { text: clip(node.label), role: 'title' },
        { text: node.summary ? summaryText(node, node.summary) : 'empty', role: 'small' },
      ];
    case 'region':
      return [
        { text: clip(node.label), role: 'title' },
        { text: node.regionType, role: 'small' },
        { text: node.summary ? summaryText(node, node.summary) : 'empty', role: 'small' },
      ];
    case 'loop':
      return [
        { text: clip(loopHeader(node), 80), role: 'mono' },
        { text: clip(node.label), role: 'small' },
        { text: summaryText(node, node.summary!), role: 'small' },
      ];
    case 'conditional':
      return [
        { text: clip(node.label), role: 'title' },
        ...node.conditions
          .slice(0, 3)
          .map((c, i): Line => ({ text: clip(c === null ? 'else' : `${i === 0 ? 'if' : 'elif'} ${c}`, 60), role: 'mono' })),
        ...(node.conditions.length > 3 ? [{ text: `… ${node.conditions.length - 3} more branches`, role: 'small' as const }] : []),
        { text: summaryText(node, node.summary!), role: 'small' },
      ];
    case 'branch':
      return [
        { text: clip(node.label, 60), role: 'mono' },
        { text: summaryText(node, node.summary!), role: 'small' },
      ];
    case 'break':
    case 'continue':
    case 'return':
      return [{ text: node.kind, role: 'title' }];
    case 'access':
      // Transients get a second line: storage, and what the shown mode does with them (see draw.ts).
      return node.transient !== null
        ? [
            { text: clip(node.label, 48), role: 'body' },
            { text: node.storage ?? '', role: 'small' },
          ]
        : [{ text: clip(node.label, 48), role: 'body' }];
    case 'tasklet': {
      const code = node.code.split('\n').map((l): Line => ({ text: l, role: 'mono' }));
      if (node.codeLines > code.length) code.push({ text: `… ${node.codeLines - code.length} more lines`, role: 'small' });
      return [{ text: clip(node.label, 48), role: 'title' }, ...code];
    }
    case 'map':
    case 'consume':
      return [
        { text: clip(node.label, 48), role: 'title' },
        { text: clip(`[${node.params.join(', ')}]`, 80), role: 'mono' },
        ...(node.schedule !== 'Default' ? [{ text: node.schedule, role: 'small' as const }] : []),
        ...(node.summary ? [{ text: summaryText(node, node.summary), role: 'small' as const }] : []),
      ];
    case 'nested_sdfg':
      return [
        { text: clip(node.label, 48), role: 'title' },
        ...(node.summary
          ? [{ text: summaryText(node, node.summary), role: 'small' as const }]
          : node.deferred
            ? [{ text: 'reading…', role: 'small' as const }]
            : []),
      ];
    case 'library':
      return [
        { text: clip(node.label, 48), role: 'title' },
        { text: node.className, role: 'small' },
      ];
    case 'unknown':
      return [
        { text: clip(node.label, 48), role: 'title' },
        { text: node.type, role: 'small' },
      ];
  }
}

/** The header lines of an expanded element's frame. */
export function frameLines(node: GraphNode): Line[] {
  switch (node.kind) {
    case 'loop':
      return [
        { text: clip(loopHeader(node), 120), role: 'mono' },
        { text: node.label, role: 'small' },
      ];
    case 'branch':
      return [{ text: clip(node.label, 120), role: 'mono' }];
    case 'map':
    case 'consume':
      return [
        { text: clip(node.label, 60), role: 'title' },
        { text: clip(`[${node.params.join(', ')}]${node.schedule !== 'Default' ? `  ${node.schedule}` : ''}`, 120), role: 'mono' },
      ];
    case 'region':
      return [{ text: `${clip(node.label)}  (${node.regionType})`, role: 'title' }];
    default:
      return [{ text: clip(node.label, 80), role: 'title' }];
  }
}

const UNITS = ['B', 'KiB', 'MiB', 'GiB', 'TiB', 'PiB'];

/** Bytes in binary units with three significant digits: `30.0 MiB`, `512 B`. */
export function formatBytes(bytes: number): string {
  let v = bytes;
  let u = 0;
  while (Math.abs(v) >= 1024 && u < UNITS.length - 1) {
    v /= 1024;
    u++;
  }
  if (u === 0) return `${Math.round(v)} B`;
  return `${v >= 100 ? v.toFixed(0) : v >= 10 ? v.toFixed(1) : v.toFixed(2)} ${UNITS[u]}`;
}
