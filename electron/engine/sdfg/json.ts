/** Small helpers for walking untyped JSON and naming places in it with JSON paths (`$.nodes[2].attributes.x`). */

export type JsonObject = Record<string, unknown>;

export function isPlainObject(value: unknown): value is JsonObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** `path.key`, or `path["key"]` when the key is not an identifier (descriptor names may contain dots). */
export function keyPath(path: string, key: string): string {
  if (IDENTIFIER.test(key)) return `${path}.${key}`;
  return `${path}["${key.replace(/\\/g, '\\\\').replace(/"/g, '\\"')}"]`;
}

/** A name or text from the file, quoted for a message and cut short: hostile files hold megabyte strings. */
export function quoteText(text: string, max = 60): string {
  const cut = text.length > max ? `${text.slice(0, max)}…` : text;
  return JSON.stringify(cut);
}
