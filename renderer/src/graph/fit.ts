/**
 * Where Fit and the first view of a document put the camera. Pure: a scene and the canvas size in, a zoom and
 * a translation out.
 *
 * A whole big graph at fit zoom is a column of specks with no label (velocity_tendencies' 99 root states fit
 * at a zoom where a title is 2 px, and lod.ts drops text under 5.5 px). Graph viewers that stay readable do not
 * go there: Netron opens a big model at a readable scale from its top and lets the user scroll; SDFV fits
 * everything and hides every label below its level of detail, which is what made Fit useless here. Fit now
 * fits the whole graph only while its block and state titles stay at least `FIT_TITLE_PX` on screen; a bigger
 * graph gets the smallest zoom that keeps them there, from its top (the root's topmost element, its start),
 * centred when its width fits, and the minimap shows the rest.
 */
import type { Scene } from './scene.js';
import { FONT_PX } from './text.js';

export interface Camera {
  k: number;
  tx: number;
  ty: number;
  /** The whole graph is in view. */
  whole: boolean;
}

/** Screen size (px) of a block title at the smallest zoom Fit goes to: above lod.ts's MIN_TEXT_PX (5.5), so
 * titles are drawn, and big enough to read a state's name. */
const FIT_TITLE_PX = 7;
export const FIT_MIN_K = FIT_TITLE_PX / FONT_PX.title;
/** Zoom at which every label of the graph is comfortably readable (the first view of a big file). */
export const READABLE_K = 0.85;
const PAD = 24;

/** Zoom at which the whole scene fits the canvas (with a margin). */
function wholeScale(scene: Scene | null, width: number, height: number): number {
  if (!scene || scene.width === 0) return 1;
  return Math.min((width - 2 * PAD) / scene.width, (height - 2 * PAD) / scene.height);
}

function centred(scene: Scene, width: number, height: number, k: number): Camera {
  return { k, tx: width / 2 - (scene.width / 2) * k, ty: height / 2 - (scene.height / 2) * k, whole: true };
}

/** The graph's start at zoom `k`: the root's topmost element at the top, centred (or the graph centred when its
 * width fits). The layout's top-left corner need not hold the start: with big control-flow regions ordered
 * quickly (flat-layout.ts), velocity_tendencies' start block lay right of it. */
function fromTop(scene: Scene, width: number, k: number): Camera {
  let top = -1;
  scene.nodes.forEach((n, i) => {
    if (n.depth === 0 && (top < 0 || n.y < scene.nodes[top]!.y)) top = i;
  });
  const t = top >= 0 ? scene.nodes[top]! : null;
  const tx = scene.width * k <= width ? (width - scene.width * k) / 2 : width / 2 - (t ? t.x + t.w / 2 : scene.width / 2) * k;
  return { k, tx, ty: PAD - (t ? t.y : 0) * k, whole: false };
}

/** Fit (the F key, the Fit button, after expand/collapse all): all of it while titles stay readable. */
export function fitCamera(scene: Scene, width: number, height: number, maxK = 2): Camera {
  const k = wholeScale(scene, width, height);
  return k >= FIT_MIN_K ? centred(scene, width, height, Math.min(k, maxK)) : fromTop(scene, width, FIT_MIN_K);
}

/** The first view of a document: all of it when every label is readable, else its start at a readable zoom. */
export function initialCamera(scene: Scene, width: number, height: number): Camera {
  const k = wholeScale(scene, width, height);
  return k >= READABLE_K ? centred(scene, width, height, Math.min(k, 1.25)) : fromTop(scene, width, READABLE_K);
}

/** Where "show this element" puts the camera: the element (node or edge) centred, at a zoom between 0.7 and 1.1
 * that leaves room around it; null when the scene does not hold it. */
export function revealCamera(scene: Scene, id: string, width: number, height: number): Camera | null {
  const ni = scene.byId.get(id);
  const ei = scene.edgeById.get(id);
  let box: [number, number, number, number] | null = null;
  if (ni !== undefined) {
    const n = scene.nodes[ni]!;
    box = [n.x, n.y, n.w, n.h];
  } else if (ei !== undefined) {
    const e = scene.edges[ei]!;
    box = [e.minX, e.minY, e.maxX - e.minX, e.maxY - e.minY];
  }
  if (!box) return null;
  const k = Math.max(0.7, Math.min(1.1, Math.min(width / (box[2] * 2.5), height / (box[3] * 2.5))));
  const x = box[0] + box[2] / 2;
  const y = box[1] + box[3] / 2;
  return { k, tx: width / 2 - x * k, ty: height / 2 - y * k, whole: false };
}
