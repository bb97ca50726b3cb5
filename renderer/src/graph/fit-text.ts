/**
 * Text that fits: widths cached per font and string, and the longest prefix that fits a width with an ellipsis
 * (never squeezed the way fillText's maxWidth does). The caches are bounded.
 */
export class TextFitter {
  private ctx: CanvasRenderingContext2D | null = null;

  use(ctx: CanvasRenderingContext2D): void {
    this.ctx = ctx;
  }

  private readonly widths = new Map<string, number>();
  private readonly fitted = new Map<string, string>();

  /** Width of `text` in the current font (graph units), cached. */
  measure(text: string): number {
    const key = `${this.ctx!.font}\u0000${text}`;
    let w = this.widths.get(key);
    if (w === undefined) {
      if (this.widths.size > 50_000) this.widths.clear();
      w = this.ctx!.measureText(text).width;
      this.widths.set(key, w);
    }
    return w;
  }

  /** The longest prefix of `text` that fits `max` with an ellipsis; "" when not even one character fits. */
  fit(text: string, max: number): string {
    if (this.measure(text) <= max) return text;
    const key = `${this.ctx!.font}\u0000${Math.floor(max)}\u0000${text}`;
    let out = this.fitted.get(key);
    if (out === undefined) {
      let lo = 0;
      let hi = text.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (this.measure(`${text.slice(0, mid)}…`) <= max) lo = mid;
        else hi = mid - 1;
      }
      out = lo >= 2 ? `${text.slice(0, lo)}…` : '';
      if (this.fitted.size > 20_000) this.fitted.clear();
      this.fitted.set(key, out);
    }
    return out;
  }
}
