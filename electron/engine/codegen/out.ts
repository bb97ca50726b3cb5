/**
 * The output writer: indented C++ lines. Every SDFG element's code starts with a `// @ <jsonPath>` marker,
 * from which `GeneratedProgram.lineOrigins` maps compiler errors back to the element.
 */
export class Out {
  lines: string[] = [];
  private depth = 0;

  line(text: string): void {
    this.lines.push(text === '' ? '' : '  '.repeat(this.depth) + text);
  }

  raw(text: string): void {
    for (const l of text.split('\n')) this.lines.push(l);
  }

  open(text: string): void {
    this.line(`${text} {`);
    this.depth++;
  }

  openBrace(): void {
    this.line('{');
    this.depth++;
  }

  reopen(text: string): void {
    this.depth--;
    this.line(text);
    this.depth++;
  }

  /** One level deeper without printing a brace (the caller printed its own opener, e.g. a lambda's). */
  openBraceless(): void {
    this.depth++;
  }

  closeBraceless(): void {
    this.depth--;
  }

  close(text = '}'): void {
    this.depth--;
    this.line(text);
  }

  mark(jsonPath: string): void {
    this.line(`// @ ${jsonPath}`);
  }

  /** Runs `fn` with its lines going to a fresh list, returned instead of written (for code that must be
   * emitted before something it produces, e.g. a function body before the constants it turned out to need). */
  capture(fn: () => void): string[] {
    const saved = this.lines;
    const depth = this.depth;
    this.lines = [];
    this.depth = 0;
    try {
      fn();
      return this.lines;
    } finally {
      this.lines = saved;
      this.depth = depth;
    }
  }

  text(): string {
    return this.lines.join('\n');
  }
}

/** Line number (1-based) → the JSON path of the most recent `// @` marker at or above it. */
export function lineOrigins(source: string): Map<number, string> {
  const origins = new Map<number, string>();
  let origin: string | null = null;
  source.split('\n').forEach((line, i) => {
    const m = /\/\/ @ (\$\S*)/.exec(line);
    if (m) origin = m[1]!;
    if (origin) origins.set(i + 1, origin);
  });
  return origins;
}
