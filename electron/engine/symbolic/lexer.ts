/**
 * Hand-written tokenizer for both symbolic grammars and the Python subset used in code strings. It scans
 * with charCodeAt (no regular expression per character) because the largest files hold millions of strings.
 */
import { SymbolicSyntaxError } from './ast.js';

/** `legacy`/`typed`: symbolic property text; `python`: code strings, with layout tokens when `layout` is set. */
export type LexMode = 'legacy' | 'typed' | 'python';

type TokenKind = 'int' | 'float' | 'imag' | 'name' | 'sym' | 'op' | 'newline' | 'indent' | 'dedent' | 'eof';

export interface Token {
  kind: TokenKind;
  /** Name, operator, or the number's text without suffix. */
  text: string;
  pos: number;
  /** Whitespace (or a line break) separates this token from the previous one. */
  spaceBefore: boolean;
  /** Typed-grammar literal suffix (`i64`, `f32`, …). */
  suffix?: string;
  intValue?: bigint;
  floatValue?: number;
}

const TYPED_SUFFIXES = new Set([
  'i8',
  'i16',
  'i32',
  'i64',
  'u8',
  'u16',
  'u32',
  'u64',
  'f16',
  'bf16',
  'f32',
  'f64',
  'e4m3fn',
  'e5m2',
  'c64',
  'c128',
]);
export const COMPLEX_SUFFIXES = new Set(['c64', 'c128']);

const OPERATORS_3 = new Set(['**=', '//=', '<<=', '>>=']);
const OPERATORS_2 = new Set(['**', '//', '==', '!=', '<=', '>=', '<<', '>>', '+=', '-=', '*=', '/=', '%=', '&=', '|=', '^=', '->']);
const OPERATORS_1 = new Set(['+', '-', '*', '/', '%', '<', '>', '=', '(', ')', '[', ']', ',', ':', '.', '&', '|', '^', '~', ';', '@']);

/** The longest operator at `i`, so that `**=` wins over `**` and `*`. */
function operatorAt(src: string, i: number): string | undefined {
  const one = src[i]!;
  if (!OPERATORS_1.has(one) && one !== '!') return undefined;
  if (i + 1 < src.length) {
    if (i + 2 < src.length) {
      const three = src.slice(i, i + 3);
      if (OPERATORS_3.has(three)) return three;
    }
    const two = src.slice(i, i + 2);
    if (OPERATORS_2.has(two)) return two;
  }
  return OPERATORS_1.has(one) ? one : undefined;
}

const C_0 = 48,
  C_9 = 57,
  C_a = 97,
  C_z = 122,
  C_A = 65,
  C_Z = 90,
  C_UNDERSCORE = 95,
  C_DOT = 46;
const C_SPACE = 32,
  C_TAB = 9,
  C_CR = 13,
  C_LF = 10,
  C_FF = 12,
  C_HASH = 35,
  C_DOLLAR = 36,
  C_QUESTION = 63;
const C_BACKSLASH = 92;

function isDigit(c: number): boolean {
  return c >= C_0 && c <= C_9;
}
function isNameStart(c: number): boolean {
  return (c >= C_a && c <= C_z) || (c >= C_A && c <= C_Z) || c === C_UNDERSCORE || c > 127;
}
function isNameChar(c: number): boolean {
  return isNameStart(c) || isDigit(c);
}

/**
 * Tokenizes `src`. With `layout`, emits Python NEWLINE/INDENT/DEDENT tokens (line breaks inside brackets
 * and after a backslash continue the logical line); otherwise line breaks are plain whitespace.
 */
export function tokenize(src: string, mode: LexMode, layout: boolean): Token[] {
  const tokens: Token[] = [];
  const n = src.length;
  let i = 0;
  let bracketDepth = 0;
  let spaceBefore = false;
  const indentStack = [0];
  let atLineStart = layout;

  const fail = (reason: string, at: number): never => {
    throw new SymbolicSyntaxError(reason, src, at);
  };

  while (i < n) {
    if (atLineStart) {
      // Measure indentation; blank and comment-only lines do not open or close blocks.
      let col = 0;
      let j = i;
      for (; j < n; j++) {
        const c = src.charCodeAt(j);
        if (c === C_SPACE) col++;
        else if (c === C_TAB) col = (Math.floor(col / 8) + 1) * 8;
        else if (c === C_FF) col = 0;
        else break;
      }
      const c = j < n ? src.charCodeAt(j) : -1;
      if (c === -1 || c === C_LF || c === C_CR || c === C_HASH) {
        i = j;
        if (c === C_HASH) while (i < n && src.charCodeAt(i) !== C_LF) i++;
        if (i < n) i++;
        continue;
      }
      atLineStart = false;
      const top = indentStack[indentStack.length - 1]!;
      if (col > top) {
        indentStack.push(col);
        tokens.push({ kind: 'indent', text: '', pos: j, spaceBefore: true });
      } else {
        while (col < indentStack[indentStack.length - 1]!) {
          indentStack.pop();
          tokens.push({ kind: 'dedent', text: '', pos: j, spaceBefore: true });
        }
        if (col !== indentStack[indentStack.length - 1]) fail('inconsistent indentation', j);
      }
      i = j;
      spaceBefore = true;
      continue;
    }

    const c = src.charCodeAt(i);
    if (c === C_SPACE || c === C_TAB || c === C_FF) {
      i++;
      spaceBefore = true;
      continue;
    }
    if (c === C_LF || c === C_CR) {
      i++;
      spaceBefore = true;
      if (layout && bracketDepth === 0) {
        const last = tokens[tokens.length - 1];
        if (last && last.kind !== 'newline' && last.kind !== 'indent' && last.kind !== 'dedent') {
          tokens.push({ kind: 'newline', text: '\n', pos: i - 1, spaceBefore: false });
        }
        atLineStart = true;
      }
      continue;
    }
    if (c === C_BACKSLASH) {
      // Explicit line continuation.
      let j = i + 1;
      if (j < n && src.charCodeAt(j) === C_CR) j++;
      if (j < n && src.charCodeAt(j) === C_LF) {
        i = j + 1;
        spaceBefore = true;
        continue;
      }
      fail("unexpected '\\'", i);
    }
    if (c === C_HASH && mode === 'python') {
      while (i < n && src.charCodeAt(i) !== C_LF && src.charCodeAt(i) !== C_CR) i++;
      continue;
    }

    const start = i;
    if (isDigit(c) || (c === C_DOT && i + 1 < n && isDigit(src.charCodeAt(i + 1)))) {
      i = scanNumber(src, i, mode, tokens, spaceBefore, fail);
      spaceBefore = false;
      continue;
    }
    if (isNameStart(c)) {
      while (i < n && isNameChar(src.charCodeAt(i))) i++;
      tokens.push({ kind: 'name', text: src.slice(start, i), pos: start, spaceBefore });
      spaceBefore = false;
      continue;
    }
    if (c === C_DOLLAR) {
      if (mode !== 'typed') fail("'$' is only valid in the typed grammar", i);
      i++;
      if (i < n && src.charCodeAt(i) === C_QUESTION) {
        i++;
        tokens.push({ kind: 'sym', text: '?', pos: start, spaceBefore });
      } else if (i < n && isNameStart(src.charCodeAt(i))) {
        while (i < n && isNameChar(src.charCodeAt(i))) i++;
        tokens.push({ kind: 'sym', text: src.slice(start + 1, i), pos: start, spaceBefore });
      } else {
        fail("'$' must be followed by a symbol name or '?'", start);
      }
      spaceBefore = false;
      continue;
    }
    if (c === C_QUESTION && mode !== 'python') {
      // A bare `?` is the undefined symbol in legacy text (and what show() prints for `$?`).
      i++;
      tokens.push({ kind: 'sym', text: '?', pos: start, spaceBefore });
      spaceBefore = false;
      continue;
    }
    const op = operatorAt(src, i);
    if (op === undefined) {
      const ch = src[i] === '"' || src[i] === "'" ? 'string literals are' : `character ${JSON.stringify(src[i])} is`;
      fail(`${ch} not supported`, i);
    } else {
      if (op === '(' || op === '[') bracketDepth++;
      else if ((op === ')' || op === ']') && bracketDepth > 0) bracketDepth--;
      tokens.push({ kind: 'op', text: op, pos: start, spaceBefore });
      i += op.length;
      spaceBefore = false;
    }
  }
  if (layout) {
    const last = tokens[tokens.length - 1];
    if (last && last.kind !== 'newline' && last.kind !== 'dedent') tokens.push({ kind: 'newline', text: '\n', pos: n, spaceBefore: false });
    while (indentStack.length > 1) {
      indentStack.pop();
      tokens.push({ kind: 'dedent', text: '', pos: n, spaceBefore: true });
    }
  }
  tokens.push({ kind: 'eof', text: '', pos: n, spaceBefore: true });
  return tokens;
}

function scanNumber(
  src: string,
  start: number,
  mode: LexMode,
  tokens: Token[],
  spaceBefore: boolean,
  fail: (reason: string, at: number) => never,
): number {
  const n = src.length;
  let i = start;
  const c0 = src.charCodeAt(i);
  const c1 = i + 1 < n ? src.charCodeAt(i + 1) | 0x20 : -1;
  if (c0 === C_0 && (c1 === 0x78 || c1 === 0x6f || c1 === 0x62)) {
    // 0x / 0o / 0b integers (Python code).
    const radix = c1 === 0x78 ? 16 : c1 === 0x6f ? 8 : 2;
    i += 2;
    const digitsStart = i;
    while (i < n && isNameChar(src.charCodeAt(i))) i++;
    const digits = src.slice(digitsStart, i).replace(/_/g, '');
    const valid = radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[01]+$/;
    if (!valid.test(digits)) fail('invalid integer literal', start);
    const prefix = radix === 16 ? '0x' : radix === 8 ? '0o' : '0b';
    tokens.push({ kind: 'int', text: src.slice(start, i), pos: start, spaceBefore, intValue: BigInt(prefix + digits) });
    return i;
  }

  let isFloat = false;
  const skipDigits = (): void => {
    while (i < n) {
      const c = src.charCodeAt(i);
      if (isDigit(c)) i++;
      else if (c === C_UNDERSCORE && i + 1 < n && isDigit(src.charCodeAt(i + 1)) && i > start && isDigit(src.charCodeAt(i - 1))) i++;
      else break;
    }
  };
  skipDigits();
  if (i < n && src.charCodeAt(i) === C_DOT) {
    // `1.` is a float, but `x.real` style attribute access never starts with a digit, so a dot is ours.
    isFloat = true;
    i++;
    skipDigits();
  }
  const fp8Suffix = mode === 'typed' && (endsWord(src, i, 'e4m3fn') || endsWord(src, i, 'e5m2'));
  if (!fp8Suffix && i < n && (src.charCodeAt(i) | 0x20) === 0x65) {
    let j = i + 1;
    if (j < n && (src.charCodeAt(j) === 43 || src.charCodeAt(j) === 45)) j++;
    if (j >= n || !isDigit(src.charCodeAt(j))) fail('invalid number literal (exponent without digits)', start);
    isFloat = true;
    i = j;
    skipDigits();
  }
  const text = src.slice(start, i);
  const clean = text.replace(/_/g, '');

  let suffix: string | undefined;
  let imaginary = false;
  if (i < n && isNameChar(src.charCodeAt(i))) {
    let j = i;
    while (j < n && isNameChar(src.charCodeAt(j))) j++;
    const word = src.slice(i, j);
    if (word === 'j' || word === 'J') {
      imaginary = true;
    } else if (mode === 'typed' && TYPED_SUFFIXES.has(word)) {
      suffix = word;
    } else {
      fail(`invalid number literal ${JSON.stringify(text + word)}`, start);
    }
    i = j;
  }

  if (imaginary) {
    tokens.push({ kind: 'imag', text: clean, pos: start, spaceBefore, floatValue: Number(clean) });
  } else if (suffix !== undefined && suffix[0] !== 'i' && suffix[0] !== 'u') {
    tokens.push({ kind: 'float', text: clean, pos: start, spaceBefore, floatValue: Number(clean), suffix });
  } else if (isFloat) {
    if (suffix !== undefined) fail(`integer suffix '${suffix}' on a non-integer literal`, start);
    tokens.push({ kind: 'float', text: clean, pos: start, spaceBefore, floatValue: Number(clean) });
  } else {
    const token: Token = { kind: 'int', text: clean, pos: start, spaceBefore, intValue: BigInt(clean) };
    if (suffix !== undefined) token.suffix = suffix;
    tokens.push(token);
  }
  return i;
}

function endsWord(src: string, at: number, word: string): boolean {
  return src.startsWith(word, at) && (at + word.length >= src.length || !isNameChar(src.charCodeAt(at + word.length)));
}
