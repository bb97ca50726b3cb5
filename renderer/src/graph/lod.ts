/**
 * Level of detail: what is worth drawing at a zoom level. Text smaller than a few pixels costs the most time
 * and tells nothing, so it goes first; then edge decoration; then the inside of frames too small to read.
 * Thresholds are in screen pixels per graph unit (the zoom scale k). Pure.
 */
import { FONT_PX } from './text.js';

export interface Lod {
  /** Node labels (titles). */
  text: boolean;
  /** Tasklet code, map ranges, summaries: the smaller second lines. */
  detail: boolean;
  connectors: boolean;
  memletLabels: boolean;
  interstateLabels: boolean;
  arrows: boolean;
  /** Smooth edges; straight polylines when false. */
  curves: boolean;
  /** Frames smaller than this on screen (px) are drawn closed, their content skipped. */
  minFramePx: number;
  /** Nodes smaller than this on screen (px) are drawn as plain rectangles. */
  simpleShapePx: number;
}

/** Smallest on-screen font size worth drawing. */
export const MIN_TEXT_PX = 5.5;

export function lodFor(k: number): Lod {
  const titlePx = FONT_PX.title * k;
  return {
    text: titlePx >= MIN_TEXT_PX,
    detail: FONT_PX.small * k >= 6.5,
    connectors: k >= 0.45,
    memletLabels: FONT_PX.small * k >= 8,
    interstateLabels: FONT_PX.mono * k >= 6,
    arrows: k >= 0.25,
    curves: k >= 0.3,
    minFramePx: 28,
    simpleShapePx: 10,
  };
}

/** Screen size (px) of a frame title drawn when the frame's own text is too small to read: constant, so that
 * the names of the big blocks stay readable at any zoom. */
export const HEADER_TITLE_PX = 11;
