/**
 * Text widths without a DOM, so that the canvas and the SVG backends lay out the same chart identically and
 * layout runs in Node (reports, tests). Advance widths of DejaVu Sans (what system-ui resolves to on Debian,
 * and wider than the system fonts of macOS and Windows, so estimates err towards room to spare), in
 * thousandths of an em, measured once in Chromium; other characters count as one em.
 */

const REGULAR_ASCII = [
  318, 401, 460, 838, 636, 950, 780, 275, 390, 390, 500, 838, 318, 361, 318, 337, 636, 636, 636, 636, 636, 636, 636, 636, 636, 636, 337,
  337, 838, 838, 838, 531, 1000, 684, 686, 698, 770, 632, 575, 775, 752, 295, 295, 656, 557, 863, 748, 787, 603, 787, 695, 635, 611, 732,
  684, 989, 685, 611, 685, 390, 337, 390, 838, 500, 500, 613, 635, 550, 635, 615, 352, 635, 634, 278, 278, 579, 278, 974, 634, 612, 635,
  635, 411, 521, 392, 634, 592, 818, 592, 592, 525, 636, 337, 636, 838,
];
const BOLD_ASCII = [
  348, 456, 521, 838, 696, 1002, 872, 306, 457, 457, 523, 838, 380, 415, 380, 365, 696, 696, 696, 696, 696, 696, 696, 696, 696, 696, 400,
  400, 838, 838, 838, 580, 1000, 774, 762, 734, 830, 683, 683, 821, 837, 372, 372, 775, 637, 995, 837, 850, 733, 850, 770, 720, 682, 812,
  774, 1103, 771, 724, 725, 457, 365, 457, 838, 500, 500, 675, 716, 593, 716, 678, 435, 716, 712, 343, 343, 665, 343, 1042, 712, 687, 716,
  716, 493, 595, 478, 712, 652, 924, 645, 652, 582, 712, 365, 712, 838,
];
const REGULAR_EXTRA: Record<string, number> = {
  µ: 636,
  '·': 318,
  '×': 838,
  '–': 500,
  '−': 838,
  '…': 1000,
  '▲': 769,
  '✓': 838,
  '✗': 838,
  '→': 838,
  '≥': 838,
  '≤': 838,
  '≈': 838,
  '²': 401,
  Σ: 632,
  '°': 500,
};
const BOLD_EXTRA: Record<string, number> = {
  µ: 736,
  '·': 380,
  '×': 838,
  '–': 500,
  '−': 838,
  '…': 1000,
  '▲': 769,
  '✓': 838,
  '✗': 838,
  '→': 838,
  '≥': 838,
  '≤': 838,
  '≈': 838,
  '²': 438,
  Σ: 683,
  '°': 500,
};

/** Width in px of `text` at `size` px; `bold` for weights ≥ 600. */
export function textWidth(text: string, size: number, bold = false): number {
  const ascii = bold ? BOLD_ASCII : REGULAR_ASCII;
  const extra = bold ? BOLD_EXTRA : REGULAR_EXTRA;
  let units = 0;
  for (const ch of text) {
    const c = ch.charCodeAt(0);
    units += c >= 32 && c < 127 ? ascii[c - 32]! : (extra[ch] ?? 1000);
  }
  return (units * size) / 1000;
}

/**
 * Parts joined by `sep` over two lines: as many as fit `firstMax` px on the first, the rest on the second (cut
 * only if they overflow `secondMax`). A chart's subtitle cut to "dots…" on a narrow card had no tooltip to read.
 */
export function wrapParts(parts: string[], sep: string, size: number, firstMax: number, secondMax: number): [string, string] {
  let k = parts.length;
  while (k > 0 && textWidth(parts.slice(0, k).join(sep), size) > firstMax) k--;
  return [parts.slice(0, k).join(sep), fitText(parts.slice(k).join(sep), size, secondMax)];
}

/** `text` cut to fit `max` px, with an ellipsis; "" when not even one character and the ellipsis fit. */
export function fitText(text: string, size: number, max: number, bold = false): string {
  if (textWidth(text, size, bold) <= max) return text;
  const ell = textWidth('…', size, bold);
  let lo = 0;
  let hi = text.length;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (textWidth(text.slice(0, mid), size, bold) + ell <= max) lo = mid;
    else hi = mid - 1;
  }
  return lo === 0 ? '' : `${text.slice(0, lo)}…`;
}

/**
 * `text` cut in the middle to fit `max` px: its start and its end stay ("SCOPED · hello_w… · run 20:30:06"), for
 * labels that differ at the end (several runs of one program); "" when not even two characters fit.
 */
export function fitMiddle(text: string, size: number, max: number, bold = false): string {
  if (textWidth(text, size, bold) <= max) return text;
  const room = max - textWidth('…', size, bold);
  // Half the room for the end, the rest for the start: grow the end while it fits its half.
  let tail = 0;
  while (tail < text.length - 1 && textWidth(text.slice(text.length - tail - 1), size, bold) <= room / 2) tail++;
  const end = text.slice(text.length - tail);
  const head = fitText(text.slice(0, text.length - tail), size, room - textWidth(end, size, bold) + textWidth('…', size, bold), bold);
  if (!head || !end) return fitText(text, size, max, bold);
  return `${head}${end}`;
}

/** `text` broken at spaces into lines of at most `max` px (a word longer than a line is cut with `fitText`). */
export function wrapText(text: string, size: number, max: number, bold = false): string[] {
  const lines: string[] = [];
  let line = '';
  for (const word of text.split(/\s+/).filter(Boolean)) {
    const next = line ? `${line} ${word}` : word;
    if (!line || textWidth(next, size, bold) <= max) line = next;
    else {
      lines.push(line);
      line = word;
    }
  }
  if (line) lines.push(line);
  return lines.map((l) => fitText(l, size, max, bold));
}
