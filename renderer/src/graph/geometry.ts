/**
 * Box sizes and frame insets of graph elements, shared by the layout worker (to size nodes) and the drawing
 * code (to place text, connectors and the inside of expanded frames). Pure.
 */
import type { GraphNode } from '../../../electron/engine/view/public.js';
import { frameLines, LINE_H, nodeLines, type Line, type Measure } from './text.js';

const CONNECTOR_SPACING = 16;
export const CONNECTOR_R = 4;
/** Room for the memory badge under a collapsed element that holds transients. */
export const BADGE_H = 18;
/** The +/− toggle in the corner of expandable elements. */
export const TOGGLE = 14;
/** An open map: the entry trapezoid is the header, then this gap; the exit trapezoid (this tall) the footer. */
export const SCOPE_GAP = 10;
export const SCOPE_FOOTER_H = 22;

const PAD_X = 14;
/** The widest mode tag (marks.ts), so that marks never need a relayout. */
const ACCESS_TAG_SAMPLE = 'PERS (file)';
const PAD_Y = 8;

export interface Size {
  width: number;
  height: number;
}

export interface Insets {
  top: number;
  bottom: number;
  left: number;
  right: number;
}

function linesSize(lines: Line[], measure: Measure): Size {
  let width = 0;
  let height = 0;
  for (const l of lines) {
    width = Math.max(width, measure(l.text, l.role));
    height += LINE_H[l.role];
  }
  return { width, height };
}

function connectorWidth(node: GraphNode): number {
  if (!('inConnectors' in node)) return 0;
  const inner = node.kind === 'map' || node.kind === 'consume' ? Math.max(node.entryOut.length, node.exitIn.length) : 0;
  return Math.max(node.inConnectors.length, node.outConnectors.length, inner) * CONNECTOR_SPACING + 2 * PAD_X;
}

export const hasBadge = (node: GraphNode): boolean => (node.summary?.transients.length ?? 0) > 0;

/** The widest text a memory badge holds in practice (the worker sees no counts: see `forLayout`). */
const BADGE_SAMPLE = '9999 transients · 999 MiB+';

/** Size of an element drawn as one box (collapsed, or a leaf). */
export function collapsedSize(node: GraphNode, measure: Measure): Size {
  const text = linesSize(nodeLines(node), measure);
  let width = text.width + 2 * PAD_X;
  let height = text.height + 2 * PAD_Y;
  switch (node.kind) {
    case 'access': {
      // An ellipse needs about 1.25× the text box to hold it; a transient's second line holds its mode tag.
      const tagWidth = node.transient !== null ? measure(`${ACCESS_TAG_SAMPLE} · ${node.storage ?? ''}`, 'small') : 0;
      width = Math.max(72, Math.max(text.width, tagWidth) * 1.25 + 28);
      height = node.transient !== null ? 44 : 34;
      break;
    }
    case 'tasklet':
      width += 20;
      height += 6;
      break;
    case 'map':
    case 'consume':
      // Trapezoid: the slanted sides eat the corners.
      width += 2 * height * 0.35;
      break;
    case 'nested_sdfg':
      width += 8;
      height += 8;
      break;
    case 'break':
    case 'continue':
    case 'return':
      width = Math.max(width, 70);
      break;
    default:
      break;
  }
  if (node.expand !== null) width += TOGGLE + 6;
  if (hasBadge(node)) {
    height += BADGE_H;
    // Room for the widest badge the marks can make ("N transients · 999 MiB+"): marks never relayout.
    width = Math.max(width, measure(BADGE_SAMPLE, 'small') + 36);
  }
  width = Math.max(width, connectorWidth(node), 40);
  return { width: Math.ceil(width), height: Math.ceil(height) };
}

/** Where an expanded element's content sits inside its frame. */
export function frameInsets(node: GraphNode, measure: Measure): Insets & { headerWidth: number } {
  const header = linesSize(frameLines(node), measure);
  const badge = hasBadge(node) ? BADGE_H : 0;
  const headerWidth = header.width + 2 * PAD_X + TOGGLE + 10;
  switch (node.kind) {
    case 'map':
    case 'consume':
      // The entry trapezoid is the header, the exit trapezoid the footer.
      return {
        top: header.height + 2 * PAD_Y + badge + SCOPE_GAP,
        bottom: SCOPE_FOOTER_H + 8,
        left: 12,
        right: 12,
        headerWidth: headerWidth + 40,
      };
    case 'nested_sdfg':
      return { top: header.height + 2 * PAD_Y + badge + 4, bottom: 14, left: 14, right: 14, headerWidth };
    case 'conditional':
      return { top: header.height + 2 * PAD_Y + badge, bottom: 10, left: 10, right: 10, headerWidth };
    default:
      return { top: header.height + 2 * PAD_Y + badge, bottom: 12, left: 12, right: 12, headerWidth };
  }
}

/** Size of an expanded element's frame around content of the given size. */
export function frameSize(node: GraphNode, content: Size, measure: Measure): Size {
  const ins = frameInsets(node, measure);
  return {
    width: Math.ceil(Math.max(content.width + ins.left + ins.right, ins.headerWidth, connectorWidth(node), 60)),
    height: Math.ceil(content.height + ins.top + ins.bottom),
  };
}

/** x of connector `i` of `n` spread over a side of width `w` starting at `x`. */
export function connectorX(x: number, w: number, i: number, n: number): number {
  if (n <= 0) return x + w / 2;
  const span = Math.min(w - 16, n * CONNECTOR_SPACING);
  return x + (w - span) / 2 + (i + 0.5) * (span / n);
}
