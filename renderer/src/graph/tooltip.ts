/** The hover card: what an element is, in words and numbers. Plain DOM, text only (no HTML from data). */
import type { GraphEdge, GraphNode } from '../../../electron/engine/view/public.js';
import { palette, type ThemeName } from '../theme/index.js';
import { formatBytes, loopHeader, summaryText } from './text.js';
import { fateBytes, type TransientMarks } from './marks.js';

export function describeNode(n: GraphNode, marks: TransientMarks): string[] {
  const lines: string[] = [];
  switch (n.kind) {
    case 'access': {
      const d = n.descriptor;
      lines.push(`${n.data}${d ? `: ${d.dtype}[${d.shape.join(', ')}]` : ''}`);
      lines.push(`${d?.type ?? 'undeclared'} · ${n.storage ?? 'no storage'}${n.transient ? ' · transient' : ''}`);
      const m = n.transient ? marks.get(n.transient) : undefined;
      if (m) {
        lines.push(`${m.tag}${m.bytes !== null ? ` · ${formatBytes(m.bytes)}` : ' · size symbolic'}`);
        if (m.note) lines.push(m.note);
      }
      break;
    }
    case 'tasklet':
      lines.push(`tasklet ${n.label} (${n.language})`, ...n.code.split('\n').slice(0, 6));
      break;
    case 'map':
    case 'consume':
      lines.push(`${n.kind} ${n.label}`, `[${n.params.join(', ')}]`, `schedule ${n.schedule}`);
      break;
    case 'loop':
      lines.push(n.label, loopHeader(n));
      break;
    case 'conditional':
      lines.push(n.label, ...n.conditions.map((c, i) => (c === null ? 'else' : `${i === 0 ? 'if' : 'elif'} ${c}`)));
      break;
    case 'nested_sdfg':
      lines.push(`nested SDFG ${n.label}`, ...n.symbolMapping.slice(0, 4));
      break;
    case 'library':
      lines.push(`${n.className} ${n.label}`, `implementation ${n.implementation ?? 'default'}`);
      break;
    case 'unknown':
      lines.push(`${n.type} ${n.label}`);
      break;
    default:
      lines.push(`${n.kind} ${n.label}`);
  }
  if (n.summary) {
    lines.push(summaryText(n, n.summary));
    if (n.summary.transients.length) {
      const fb = fateBytes(n.summary.transients, marks);
      const views = fb.aliases
        ? `; ${fb.aliases} view${fb.aliases === 1 ? '' : 's'} or reference${fb.aliases === 1 ? '' : 's'} not counted (no bytes of their own)`
        : '';
      lines.push(
        `${n.summary.transients.length} transients${fb.total > 0 ? `, ${formatBytes(fb.total)}` : ''}${fb.unknown ? ` (+${fb.unknown} symbolic)` : ''}${views}`,
      );
    }
  }
  return lines;
}

export function describeEdge(e: GraphEdge): string[] {
  if (e.kind === 'interstate') {
    return ['interstate edge', ...(e.condition ? [`if ${e.condition}`] : []), ...e.assignments.map(([k, v]) => `${k} = ${v}`)];
  }
  if (e.data === null) return ['empty memlet (ordering only)'];
  return [e.label, `volume ${e.volume}${e.dynamic ? ' (at most)' : ''}`, ...(e.wcr ? [`write-conflict resolution: ${e.wcr}`] : [])];
}

export class Tooltip {
  private readonly el: HTMLDivElement;

  constructor(parent: HTMLElement) {
    this.el = document.createElement('div');
    this.el.className = 'tlab-graph-tooltip';
    this.el.setAttribute('role', 'tooltip');
    this.el.style.cssText =
      'position:absolute;pointer-events:none;display:none;max-width:420px;padding:6px 9px;border-radius:6px;font:12px/1.45 system-ui,sans-serif;white-space:pre-wrap;z-index:2;box-shadow:0 2px 8px rgba(0,0,0,.25)';
    parent.appendChild(this.el);
  }

  show(lines: string[], x: number, y: number, theme: ThemeName, bounds: { width: number; height: number }): void {
    const pal = palette(theme);
    this.el.style.background = pal.surface;
    this.el.style.color = pal.text;
    this.el.style.border = `1px solid ${pal.border}`;
    this.el.textContent = lines.join('\n');
    this.el.style.display = 'block';
    const w = this.el.offsetWidth;
    const h = this.el.offsetHeight;
    this.el.style.left = `${Math.min(x + 14, bounds.width - w - 4)}px`;
    this.el.style.top = `${y + 18 + h > bounds.height ? y - h - 10 : y + 18}px`;
  }

  hide(): void {
    this.el.style.display = 'none';
  }

  destroy(): void {
    this.el.remove();
  }
}
