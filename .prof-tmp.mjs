import { chromium } from "playwright-core";
import { createServer } from "node:http";
import { existsSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { dirname, extname, join, resolve, sep } from "node:path";
import { fileURLToPath } from "node:url";
import { readFile } from "node:fs/promises";
import { gunzipSync } from "node:zlib";
// electron/engine/paths.ts
/** Where the package's own files are, whether we run from `dist/` (built) or from sources (vitest). */
let cachedRoot = null;
/** The folder holding package.json of transient-lab. */
function packageRoot() {
	if (cachedRoot) return cachedRoot;
	let dir = dirname(fileURLToPath(import.meta.url));
	for (;;) {
		if (existsSync(join(dir, "package.json")) && existsSync(join(dir, "native"))) {
			cachedRoot = dir;
			return dir;
		}
		const up = dirname(dir);
		if (up === dir) throw new Error(`transient-lab: cannot find the package root above ${fileURLToPath(import.meta.url)}`);
		dir = up;
	}
}
function corpusDir() {
	return resolve(packageRoot(), "..", "shared", "corpus", "sdfg");
}
// electron/engine/errors.ts
var TlabError = class extends Error {
	kind;
	file;
	jsonPath;
	/** Extra lines shown under the message (compiler output, the generated line, a hint). */
	details;
	constructor(kind, message, opts = {}) {
		super(message, opts.cause === void 0 ? void 0 : { cause: opts.cause });
		this.name = "TlabError";
		this.kind = kind;
		this.file = opts.file ?? null;
		this.jsonPath = opts.jsonPath ?? null;
		this.details = opts.details ?? [];
	}
	/** `file: at $.path: message` — the one-line form hosts print. */
	describe() {
		const where = [this.file, this.jsonPath ? `at ${this.jsonPath}` : null].filter(Boolean).join(": ");
		const head = where ? `${where}: ${this.message}` : this.message;
		return this.details.length ? `${head}\n${this.details.map((d) => `  ${d}`).join("\n")}` : head;
	}
};
// electron/engine/sdfg/json.ts
function isPlainObject(value) {
	return typeof value === "object" && value !== null && !Array.isArray(value);
}
const IDENTIFIER = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** `path.key`, or `path["key"]` when the key is not an identifier (descriptor names may contain dots). */
function keyPath(path, key) {
	if (IDENTIFIER.test(key)) return `${path}.${key}`;
	return `${path}["${key.replace(/\\/g, "\\\\").replace(/"/g, "\\\"")}"]`;
}
// electron/engine/sdfg/bytes.ts
/**
* From file bytes to a parsed JSON value: content sniffing (gzip by magic bytes, never by extension), one
* decompression, one UTF-8 decode, one JSON.parse — and precise messages when any of it fails.
*/
/** Files smaller than this that are not JSON are reported as placeholders rather than as broken SDFGs. */
const PLACEHOLDER_LIMIT = 1024;
function sniffSdfg(bytes) {
	if (bytes.length === 0) return {
		ok: false,
		reason: "the file is empty"
	};
	if (bytes.length >= 2 && bytes[0] === 31 && bytes[1] === 139) return {
		ok: true,
		compressed: true
	};
	const reason = rejectJsonContent(bytes, false);
	return reason === null ? {
		ok: true,
		compressed: false
	} : {
		ok: false,
		reason
	};
}
const LFS_PREFIX = "version https://git-lfs";
/**
* Says why `bytes` (plain or just decompressed) cannot be SDFG JSON, or returns null when they may be.
* Only the start of the content is inspected; JSON.parse judges the rest.
*/
function rejectJsonContent(bytes, decompressed) {
	const what = decompressed ? "the decompressed content" : "the file";
	if (bytes.length === 0) return `${what} is empty`;
	if (bytes[0] === 128) return `${what} is a Python pickle, not JSON: re-save with SDFG.save(path) without use_pickle`;
	if (startsWithAscii(bytes, LFS_PREFIX)) return `${what} is a Git LFS pointer, not the SDFG itself: run git lfs pull to fetch the real file`;
	let i = 0;
	if (bytes.length >= 3 && bytes[0] === 239 && bytes[1] === 187 && bytes[2] === 191) i = 3;
	while (i < bytes.length && isJsonWhitespace(bytes[i])) i++;
	if (i === bytes.length) return `${what} contains only whitespace`;
	const first = bytes[i];
	if (first === 123 || first === 91 || first === 34 || first === 45 || first >= 48 && first <= 57) return null;
	if (startsWithAscii(bytes, "true", i) || startsWithAscii(bytes, "false", i) || startsWithAscii(bytes, "null", i)) return null;
	const preview = previewBytes(bytes, i, 32);
	if (bytes.length < PLACEHOLDER_LIMIT) return `${what} is not an SDFG but a ${bytes.length}-byte non-JSON placeholder starting with ${preview}`;
	return `${what} is not JSON: an SDFG starts with "{", this starts with ${preview}`;
}
function isJsonWhitespace(byte) {
	return byte === 32 || byte === 10 || byte === 13 || byte === 9;
}
function startsWithAscii(bytes, text, at = 0) {
	if (bytes.length - at < text.length) return false;
	for (let k = 0; k < text.length; k++) if (bytes[at + k] !== text.charCodeAt(k)) return false;
	return true;
}
function previewBytes(bytes, from, max) {
	let out = "";
	const end = Math.min(bytes.length, from + max);
	for (let k = from; k < end; k++) {
		const b = bytes[k];
		out += b >= 32 && b < 127 && b !== 34 && b !== 92 ? String.fromCharCode(b) : `\\x${b.toString(16).padStart(2, "0")}`;
	}
	return `"${out}${end < bytes.length ? "…" : ""}"`;
}
/** Decompresses gzip content into one Buffer; corrupt or truncated streams become input errors. */
function gunzipContent(bytes, file) {
	try {
		return gunzipSync(bytes);
	} catch (error) {
		const detail = error instanceof Error ? error.message : String(error);
		throw new TlabError("input", /unexpected end/i.test(detail) ? `the gzip data is truncated (${detail}): the file was cut off while copying or saving` : `the file starts like gzip but cannot be decompressed: ${detail}`, {
			file,
			cause: error
		});
	}
}
/**
* Decodes UTF-8 once. Buffer decoding is fast and lenient (invalid bytes become U+FFFD), so a strict check
* runs only when a U+FFFD shows up — which a valid file may also contain legitimately.
*/
function decodeUtf8(bytes, file) {
	const buffer = Buffer.isBuffer(bytes) ? bytes : Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
	let text;
	try {
		text = buffer.toString("utf8");
	} catch (error) {
		throw new TlabError("input", `the JSON text (${buffer.length} bytes) is larger than this runtime can hold as one string`, {
			file,
			cause: error
		});
	}
	if (text.includes("�")) {
		const bad = firstInvalidUtf8(buffer);
		if (bad >= 0) {
			let line = 1;
			let lineStart = 0;
			for (let k = buffer.indexOf(10); k >= 0 && k < bad; k = buffer.indexOf(10, k + 1)) {
				line++;
				lineStart = k + 1;
			}
			throw new TlabError("input", `the file is not valid UTF-8: byte 0x${buffer[bad].toString(16).padStart(2, "0")} at offset ${bad} (line ${line}, byte ${bad - lineStart + 1} of the line) does not start a valid UTF-8 sequence; SDFG files are UTF-8 JSON`, { file });
		}
	}
	return text.charCodeAt(0) === 65279 ? text.slice(1) : text;
}
/** Offset of the first byte that does not belong to a well-formed UTF-8 sequence, or -1. */
function firstInvalidUtf8(bytes) {
	const n = bytes.length;
	let i = 0;
	while (i < n) {
		const b = bytes[i];
		if (b < 128) {
			i++;
			continue;
		}
		let need;
		let lo = 128;
		let hi = 191;
		if (b >= 194 && b <= 223) need = 1;
		else if (b >= 224 && b <= 239) {
			need = 2;
			if (b === 224) lo = 160;
			else if (b === 237) hi = 159;
		} else if (b >= 240 && b <= 244) {
			need = 3;
			if (b === 240) lo = 144;
			else if (b === 244) hi = 143;
		} else return i;
		if (i + need >= n) return i;
		const second = bytes[i + 1];
		if (second < lo || second > hi) return i;
		for (let k = 2; k <= need; k++) {
			const c = bytes[i + k];
			if (c < 128 || c > 191) return i;
		}
		i += need + 1;
	}
	return -1;
}
/** JSON.parse with a message that says where (line, column, JSON path) and whether the file looks cut off. */
function parseJsonText(text, file) {
	try {
		return JSON.parse(text);
	} catch (error) {
		throw describeJsonSyntaxError(text, error, file);
	}
}
function describeJsonSyntaxError(text, error, file) {
	const engineMessage = error instanceof Error ? error.message : String(error);
	const reason = engineMessage.replace(/, ".*" is not valid JSON$/s, "").replace(/ in JSON at position \d+.*$/s, "");
	const located = locateJsonSyntaxError(text);
	const engineAt = /position (\d+)/.exec(engineMessage);
	const position = located?.position ?? (engineAt ? Number(engineAt[1]) : text.length);
	const { line, column } = lineAndColumn(text, position);
	const atEnd = position >= text.trimEnd().length;
	return new TlabError("input", `the file is not valid JSON: ${reason} at line ${line}, column ${column}` + (atEnd ? "; the file looks truncated (the JSON text ends before the document is complete)" : ""), {
		file,
		jsonPath: located?.path ?? null,
		cause: error
	});
}
function lineAndColumn(text, position) {
	let line = 1;
	let lineStart = 0;
	for (let k = text.indexOf("\n"); k >= 0 && k < position; k = text.indexOf("\n", k + 1)) {
		line++;
		lineStart = k + 1;
	}
	return {
		line,
		column: position - lineStart + 1
	};
}
/**
* Finds the first syntax error of `text` with the JSON path of the value being read there. Runs only after
* JSON.parse failed, so it favours clarity over speed; it is iterative, so nesting depth cannot overflow it.
* Returns null when it finds no error (JSON.parse failed for another reason).
*/
function locateJsonSyntaxError(text) {
	const n = text.length;
	const stack = [];
	let i = 0;
	let expectValue = true;
	const fail = () => ({
		position: Math.min(i, n),
		path: framesToPath(stack)
	});
	const skipWhitespace = () => {
		while (i < n) {
			const c = text.charCodeAt(i);
			if (c === 32 || c === 10 || c === 13 || c === 9) i++;
			else break;
		}
	};
	/** Advances past a string starting at `i`; returns false on a syntax error (i is left at the problem). */
	const scanString = () => {
		i++;
		while (i < n) {
			const c = text.charCodeAt(i);
			if (c === 34) {
				i++;
				return true;
			}
			if (c < 32) return false;
			if (c === 92) {
				const e = text[i + 1];
				if (e === "u") {
					if (!/^[0-9a-fA-F]{4}$/.test(text.slice(i + 2, i + 6))) return false;
					i += 6;
				} else if (e !== void 0 && "\"\\/bfnrt".includes(e)) i += 2;
				else return false;
			} else i++;
		}
		return false;
	};
	const scanKey = (frame) => {
		frame.key = null;
		skipWhitespace();
		if (text[i] !== "\"") return false;
		const start = i + 1;
		if (!scanString()) return false;
		frame.key = text.slice(start, i - 1);
		skipWhitespace();
		if (text[i] !== ":") return false;
		i++;
		return true;
	};
	const numberPattern = /-?(?:0|[1-9][0-9]*)(?:\.[0-9]+)?(?:[eE][+-]?[0-9]+)?/y;
	for (;;) {
		skipWhitespace();
		if (expectValue) {
			if (i >= n) return fail();
			const c = text[i];
			if (c === "{") {
				i++;
				skipWhitespace();
				if (text[i] === "}") {
					i++;
					expectValue = false;
					continue;
				}
				const frame = {
					array: false,
					index: 0,
					key: null
				};
				stack.push(frame);
				if (!scanKey(frame)) return fail();
				continue;
			}
			if (c === "[") {
				i++;
				skipWhitespace();
				if (text[i] === "]") {
					i++;
					expectValue = false;
					continue;
				}
				stack.push({
					array: true,
					index: 0,
					key: null
				});
				continue;
			}
			if (c === "\"") {
				if (!scanString()) return fail();
			} else if (c === "-" || c >= "0" && c <= "9") {
				numberPattern.lastIndex = i;
				if (!numberPattern.test(text)) return fail();
				i = numberPattern.lastIndex;
			} else if (text.startsWith("true", i)) i += 4;
			else if (text.startsWith("false", i)) i += 5;
			else if (text.startsWith("null", i)) i += 4;
			else return fail();
			expectValue = false;
			continue;
		}
		const top = stack[stack.length - 1];
		if (!top) return i < n ? fail() : null;
		if (i >= n) return fail();
		const c = text[i];
		if (c === ",") {
			i++;
			if (top.array) top.index++;
			else if (!scanKey(top)) return fail();
			expectValue = true;
		} else if (top.array && c === "]" || !top.array && c === "}") {
			i++;
			stack.pop();
		} else return fail();
	}
}
function framesToPath(stack) {
	let path = "$";
	for (const frame of stack) if (frame.array) path = `${path}[${frame.index}]`;
	else if (frame.key !== null) path = keyPath(path, frame.key);
	return path;
}
// electron/engine/symbolic/ast.ts
/**
* The left spine of a binary tree, walked in a loop: sums of thousands of terms are left-deep, and recursing
* down them would overflow the stack. `spine` is outermost first; `base` is the leftmost operand where the
* walk stopped (at a non-binary node, or at the first node `follow` rejects).
*/
function leftSpine(e, follow = () => true) {
	const spine = [];
	let cur = e;
	while (cur.k === "bin" && follow(cur)) {
		spine.push(cur);
		cur = cur.a;
	}
	return {
		spine,
		base: cur
	};
}
/** `math.pi` → "math.pi"; null unless the expression is a chain of attributes on a name. */
function dottedPath(e) {
	const parts = [];
	let cur = e;
	while (cur.k === "attr") {
		parts.push(cur.name);
		cur = cur.base;
	}
	if (cur.k !== "sym") return null;
	parts.push(cur.name);
	return parts.reverse().join(".");
}
const COMPARISON_OPS = /* @__PURE__ */ new Set([
	"==",
	"!=",
	"<",
	"<=",
	">",
	">="
]);
/** A symbolic or code string could not be parsed. `position` is a 0-based offset into `source`. */
var SymbolicSyntaxError = class extends Error {
	source;
	position;
	constructor(reason, source, position) {
		super(`${reason} at column ${position + 1} of ${quoteExcerpt(source, position)}`);
		this.name = "SymbolicSyntaxError";
		this.source = source;
		this.position = position;
	}
};
/** Evaluation needed a symbol the environment does not bind. */
var UnboundSymbolError = class extends Error {
	symbol;
	constructor(symbol) {
		super(`symbol '${symbol}' has no value`);
		this.name = "UnboundSymbolError";
		this.symbol = symbol;
	}
};
function quoteExcerpt(source, position) {
	const maxChars = 120;
	if (source.length <= maxChars) return JSON.stringify(source);
	const from = Math.max(0, Math.min(position - maxChars / 2, source.length - maxChars));
	const cut = source.slice(from, from + maxChars);
	return `${from > 0 ? "…" : ""}${JSON.stringify(cut)}${from + maxChars < source.length ? "…" : ""}`;
}
// electron/engine/symbolic/lexer.ts
/**
* Hand-written tokenizer for both symbolic grammars and the Python subset used in code strings. It scans
* with charCodeAt (no regular expression per character) because the largest files hold millions of strings.
*/
const TYPED_SUFFIXES = /* @__PURE__ */ new Set([
	"i8",
	"i16",
	"i32",
	"i64",
	"u8",
	"u16",
	"u32",
	"u64",
	"f16",
	"bf16",
	"f32",
	"f64",
	"e4m3fn",
	"e5m2",
	"c64",
	"c128"
]);
const COMPLEX_SUFFIXES = /* @__PURE__ */ new Set(["c64", "c128"]);
const OPERATORS_3 = /* @__PURE__ */ new Set([
	"**=",
	"//=",
	"<<=",
	">>="
]);
const OPERATORS_2 = /* @__PURE__ */ new Set([
	"**",
	"//",
	"==",
	"!=",
	"<=",
	">=",
	"<<",
	">>",
	"+=",
	"-=",
	"*=",
	"/=",
	"%=",
	"&=",
	"|=",
	"^=",
	"->"
]);
const OPERATORS_1 = /* @__PURE__ */ new Set([
	"+",
	"-",
	"*",
	"/",
	"%",
	"<",
	">",
	"=",
	"(",
	")",
	"[",
	"]",
	",",
	":",
	".",
	"&",
	"|",
	"^",
	"~",
	";",
	"@"
]);
/** The longest operator at `i`, so that `**=` wins over `**` and `*`. */
function operatorAt(src, i) {
	const one = src[i];
	if (!OPERATORS_1.has(one) && one !== "!") return void 0;
	if (i + 1 < src.length) {
		if (i + 2 < src.length) {
			const three = src.slice(i, i + 3);
			if (OPERATORS_3.has(three)) return three;
		}
		const two = src.slice(i, i + 2);
		if (OPERATORS_2.has(two)) return two;
	}
	return OPERATORS_1.has(one) ? one : void 0;
}
const C_0 = 48;
const C_9 = 57;
const C_a = 97;
const C_z = 122;
const C_A = 65;
const C_Z = 90;
const C_UNDERSCORE = 95;
const C_DOT = 46;
const C_SPACE = 32;
const C_TAB = 9;
const C_CR = 13;
const C_LF = 10;
const C_FF = 12;
const C_HASH = 35;
const C_DOLLAR = 36;
const C_QUESTION = 63;
const C_BACKSLASH = 92;
function isDigit(c) {
	return c >= C_0 && c <= C_9;
}
function isNameStart(c) {
	return c >= C_a && c <= C_z || c >= C_A && c <= C_Z || c === C_UNDERSCORE || c > 127;
}
function isNameChar(c) {
	return isNameStart(c) || isDigit(c);
}
/**
* Tokenizes `src`. With `layout`, emits Python NEWLINE/INDENT/DEDENT tokens (line breaks inside brackets
* and after a backslash continue the logical line); otherwise line breaks are plain whitespace.
*/
function tokenize(src, mode, layout) {
	const tokens = [];
	const n = src.length;
	let i = 0;
	let bracketDepth = 0;
	let spaceBefore = false;
	const indentStack = [0];
	let atLineStart = layout;
	const fail = (reason, at) => {
		throw new SymbolicSyntaxError(reason, src, at);
	};
	while (i < n) {
		if (atLineStart) {
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
			const top = indentStack[indentStack.length - 1];
			if (col > top) {
				indentStack.push(col);
				tokens.push({
					kind: "indent",
					text: "",
					pos: j,
					spaceBefore: true
				});
			} else {
				while (col < indentStack[indentStack.length - 1]) {
					indentStack.pop();
					tokens.push({
						kind: "dedent",
						text: "",
						pos: j,
						spaceBefore: true
					});
				}
				if (col !== indentStack[indentStack.length - 1]) fail("inconsistent indentation", j);
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
				if (last && last.kind !== "newline" && last.kind !== "indent" && last.kind !== "dedent") tokens.push({
					kind: "newline",
					text: "\n",
					pos: i - 1,
					spaceBefore: false
				});
				atLineStart = true;
			}
			continue;
		}
		if (c === C_BACKSLASH) {
			let j = i + 1;
			if (j < n && src.charCodeAt(j) === C_CR) j++;
			if (j < n && src.charCodeAt(j) === C_LF) {
				i = j + 1;
				spaceBefore = true;
				continue;
			}
			fail("unexpected '\\'", i);
		}
		if (c === C_HASH && mode === "python") {
			while (i < n && src.charCodeAt(i) !== C_LF && src.charCodeAt(i) !== C_CR) i++;
			continue;
		}
		const start = i;
		if (isDigit(c) || c === C_DOT && i + 1 < n && isDigit(src.charCodeAt(i + 1))) {
			i = scanNumber(src, i, mode, tokens, spaceBefore, fail);
			spaceBefore = false;
			continue;
		}
		if (isNameStart(c)) {
			while (i < n && isNameChar(src.charCodeAt(i))) i++;
			tokens.push({
				kind: "name",
				text: src.slice(start, i),
				pos: start,
				spaceBefore
			});
			spaceBefore = false;
			continue;
		}
		if (c === C_DOLLAR) {
			if (mode !== "typed") fail("'$' is only valid in the typed grammar", i);
			i++;
			if (i < n && src.charCodeAt(i) === C_QUESTION) {
				i++;
				tokens.push({
					kind: "sym",
					text: "?",
					pos: start,
					spaceBefore
				});
			} else if (i < n && isNameStart(src.charCodeAt(i))) {
				while (i < n && isNameChar(src.charCodeAt(i))) i++;
				tokens.push({
					kind: "sym",
					text: src.slice(start + 1, i),
					pos: start,
					spaceBefore
				});
			} else fail("'$' must be followed by a symbol name or '?'", start);
			spaceBefore = false;
			continue;
		}
		if (c === C_QUESTION && mode !== "python") {
			i++;
			tokens.push({
				kind: "sym",
				text: "?",
				pos: start,
				spaceBefore
			});
			spaceBefore = false;
			continue;
		}
		const op = operatorAt(src, i);
		if (op === void 0) fail(`${src[i] === "\"" || src[i] === "'" ? "string literals are" : `character ${JSON.stringify(src[i])} is`} not supported`, i);
		else {
			if (op === "(" || op === "[") bracketDepth++;
			else if ((op === ")" || op === "]") && bracketDepth > 0) bracketDepth--;
			tokens.push({
				kind: "op",
				text: op,
				pos: start,
				spaceBefore
			});
			i += op.length;
			spaceBefore = false;
		}
	}
	if (layout) {
		const last = tokens[tokens.length - 1];
		if (last && last.kind !== "newline" && last.kind !== "dedent") tokens.push({
			kind: "newline",
			text: "\n",
			pos: n,
			spaceBefore: false
		});
		while (indentStack.length > 1) {
			indentStack.pop();
			tokens.push({
				kind: "dedent",
				text: "",
				pos: n,
				spaceBefore: true
			});
		}
	}
	tokens.push({
		kind: "eof",
		text: "",
		pos: n,
		spaceBefore: true
	});
	return tokens;
}
function scanNumber(src, start, mode, tokens, spaceBefore, fail) {
	const n = src.length;
	let i = start;
	const c0 = src.charCodeAt(i);
	const c1 = i + 1 < n ? src.charCodeAt(i + 1) | 32 : -1;
	if (c0 === C_0 && (c1 === 120 || c1 === 111 || c1 === 98)) {
		const radix = c1 === 120 ? 16 : c1 === 111 ? 8 : 2;
		i += 2;
		const digitsStart = i;
		while (i < n && isNameChar(src.charCodeAt(i))) i++;
		const digits = src.slice(digitsStart, i).replace(/_/g, "");
		if (!(radix === 16 ? /^[0-9a-fA-F]+$/ : radix === 8 ? /^[0-7]+$/ : /^[01]+$/).test(digits)) fail("invalid integer literal", start);
		const prefix = radix === 16 ? "0x" : radix === 8 ? "0o" : "0b";
		tokens.push({
			kind: "int",
			text: src.slice(start, i),
			pos: start,
			spaceBefore,
			intValue: BigInt(prefix + digits)
		});
		return i;
	}
	let isFloat = false;
	const skipDigits = () => {
		while (i < n) {
			const c = src.charCodeAt(i);
			if (isDigit(c)) i++;
			else if (c === C_UNDERSCORE && i + 1 < n && isDigit(src.charCodeAt(i + 1)) && i > start && isDigit(src.charCodeAt(i - 1))) i++;
			else break;
		}
	};
	skipDigits();
	if (i < n && src.charCodeAt(i) === C_DOT) {
		isFloat = true;
		i++;
		skipDigits();
	}
	if (!(mode === "typed" && (endsWord(src, i, "e4m3fn") || endsWord(src, i, "e5m2"))) && i < n && (src.charCodeAt(i) | 32) === 101) {
		let j = i + 1;
		if (j < n && (src.charCodeAt(j) === 43 || src.charCodeAt(j) === 45)) j++;
		if (j >= n || !isDigit(src.charCodeAt(j))) fail("invalid number literal (exponent without digits)", start);
		isFloat = true;
		i = j;
		skipDigits();
	}
	const text = src.slice(start, i);
	const clean = text.replace(/_/g, "");
	let suffix;
	let imaginary = false;
	if (i < n && isNameChar(src.charCodeAt(i))) {
		let j = i;
		while (j < n && isNameChar(src.charCodeAt(j))) j++;
		const word = src.slice(i, j);
		if (word === "j" || word === "J") imaginary = true;
		else if (mode === "typed" && TYPED_SUFFIXES.has(word)) suffix = word;
		else fail(`invalid number literal ${JSON.stringify(text + word)}`, start);
		i = j;
	}
	if (imaginary) tokens.push({
		kind: "imag",
		text: clean,
		pos: start,
		spaceBefore,
		floatValue: Number(clean)
	});
	else if (suffix !== void 0 && suffix[0] !== "i" && suffix[0] !== "u") tokens.push({
		kind: "float",
		text: clean,
		pos: start,
		spaceBefore,
		floatValue: Number(clean),
		suffix
	});
	else if (isFloat) {
		if (suffix !== void 0) fail(`integer suffix '${suffix}' on a non-integer literal`, start);
		tokens.push({
			kind: "float",
			text: clean,
			pos: start,
			spaceBefore,
			floatValue: Number(clean)
		});
	} else {
		const token = {
			kind: "int",
			text: clean,
			pos: start,
			spaceBefore,
			intValue: BigInt(clean)
		};
		if (suffix !== void 0) token.suffix = suffix;
		tokens.push(token);
	}
	return i;
}
function endsWord(src, at, word) {
	return src.startsWith(word, at) && (at + word.length >= src.length || !isNameChar(src.charCodeAt(at + word.length)));
}
// electron/engine/symbolic/parser.ts
const MAX_NESTING = 400;
const BINARY_LEVELS = [
	["|"],
	["^"],
	["&"],
	["<<", ">>"],
	["+", "-"],
	[
		"*",
		"/",
		"//",
		"%"
	]
];
const AUGMENTED = {
	"+=": "+",
	"-=": "-",
	"*=": "*",
	"/=": "/",
	"//=": "//",
	"%=": "%",
	"**=": "**",
	"&=": "&",
	"|=": "|",
	"^=": "^",
	"<<=": "<<",
	">>=": ">>"
};
const UNSUPPORTED_KEYWORDS = /* @__PURE__ */ new Set([
	"for",
	"while",
	"def",
	"class",
	"return",
	"import",
	"from",
	"lambda",
	"with",
	"try",
	"except",
	"finally",
	"raise",
	"yield",
	"del",
	"global",
	"nonlocal",
	"assert",
	"break",
	"continue",
	"async",
	"await",
	"in",
	"is"
]);
const COMPLEX_TYPE_BY_SUFFIX = {
	c64: "dace.complex64",
	c128: "dace.complex128"
};
function freeze(node) {
	return Object.freeze(node);
}
var Parser = class {
	src;
	tokens;
	mode;
	pos = 0;
	nesting = 0;
	constructor(src, tokens, mode) {
		this.src = src;
		this.tokens = tokens;
		this.mode = mode;
	}
	peek(offset = 0) {
		return this.tokens[Math.min(this.pos + offset, this.tokens.length - 1)];
	}
	next() {
		const t = this.peek();
		if (this.pos < this.tokens.length - 1) this.pos++;
		return t;
	}
	isOp(text, offset = 0) {
		const t = this.peek(offset);
		return t.kind === "op" && t.text === text;
	}
	isName(text, offset = 0) {
		const t = this.peek(offset);
		return t.kind === "name" && t.text === text;
	}
	expectOp(text) {
		if (!this.isOp(text)) this.fail(`expected '${text}' but found ${describe(this.peek())}`);
		return this.next();
	}
	fail(reason, at = this.peek().pos) {
		throw new SymbolicSyntaxError(reason, this.src, at);
	}
	enter() {
		if (++this.nesting > MAX_NESTING) this.fail(`expression nested deeper than ${MAX_NESTING} levels`);
	}
	leave() {
		this.nesting--;
	}
	atEnd() {
		return this.peek().kind === "eof";
	}
	expectEnd() {
		if (!this.atEnd()) this.fail(`unexpected ${describe(this.peek())}`);
	}
	/** Expression, or a bare tuple `a, b` where Python allows one (statement level). */
	parseExprOrTuple() {
		const first = this.parseExpr();
		if (!this.isOp(",")) return first;
		const items = [first];
		while (this.isOp(",")) {
			this.next();
			if (this.endsExpression()) break;
			items.push(this.parseExpr());
		}
		return freeze({
			k: "tuple",
			items: freeze(items)
		});
	}
	endsExpression() {
		const t = this.peek();
		return t.kind === "eof" || t.kind === "newline" || t.kind === "op" && (t.text === ")" || t.text === "]" || t.text === "=" || t.text === ";" || t.text === ":" || t.text in AUGMENTED);
	}
	parseExpr() {
		this.enter();
		const body = this.parseOr();
		let result = body;
		if (this.isName("if")) {
			this.next();
			const cond = this.parseOr();
			if (!this.isName("else")) this.fail(`expected 'else' in conditional expression but found ${describe(this.peek())}`);
			this.next();
			result = freeze({
				k: "ternary",
				cond,
				then: body,
				else: this.parseExpr()
			});
		}
		this.leave();
		return result;
	}
	parseOr() {
		let left = this.parseAnd();
		while (this.isName("or")) {
			this.next();
			left = freeze({
				k: "bin",
				op: "or",
				a: left,
				b: this.parseAnd()
			});
		}
		return left;
	}
	parseAnd() {
		let left = this.parseNot();
		while (this.isName("and")) {
			this.next();
			left = freeze({
				k: "bin",
				op: "and",
				a: left,
				b: this.parseNot()
			});
		}
		return left;
	}
	parseNot() {
		if (this.isName("not")) {
			this.next();
			this.enter();
			const operand = this.parseNot();
			this.leave();
			return freeze({
				k: "un",
				op: "not",
				a: operand
			});
		}
		return this.parseComparison();
	}
	comparisonOp() {
		const t = this.peek();
		if (t.kind === "op" && COMPARISON_OPS.has(t.text)) return t.text;
		if (t.kind === "name" && (t.text === "in" || t.text === "is" || t.text === "not" && this.isName("in", 1))) this.fail(`operator '${t.text}' is not supported`);
		return null;
	}
	parseComparison() {
		const first = this.parseBinary(0);
		let op = this.comparisonOp();
		if (op === null) return first;
		const ops = [];
		const operands = [first];
		while (op !== null) {
			this.next();
			ops.push(op);
			operands.push(this.parseBinary(0));
			op = this.comparisonOp();
		}
		if (ops.length === 1) return freeze({
			k: "bin",
			op: ops[0],
			a: operands[0],
			b: operands[1]
		});
		return freeze({
			k: "cmpchain",
			ops: freeze(ops),
			operands: freeze(operands)
		});
	}
	parseBinary(level) {
		if (level >= BINARY_LEVELS.length) return this.parseUnary();
		const ops = BINARY_LEVELS[level];
		let left = this.parseBinary(level + 1);
		for (;;) {
			const t = this.peek();
			if (t.kind !== "op" || !ops.includes(t.text)) return left;
			this.next();
			left = freeze({
				k: "bin",
				op: t.text,
				a: left,
				b: this.parseBinary(level + 1)
			});
		}
	}
	parseUnary() {
		const t = this.peek();
		if (t.kind === "op" && (t.text === "-" || t.text === "+" || t.text === "~")) {
			this.next();
			this.enter();
			const operand = this.parseUnary();
			this.leave();
			return freeze({
				k: "un",
				op: t.text,
				a: operand
			});
		}
		return this.parsePower();
	}
	parsePower() {
		const base = this.parsePostfix();
		if (!this.isOp("**")) return base;
		this.next();
		this.enter();
		const exponent = this.parseUnary();
		this.leave();
		return freeze({
			k: "bin",
			op: "**",
			a: base,
			b: exponent
		});
	}
	parsePostfix() {
		let e = this.parseAtom();
		for (;;) {
			const t = this.peek();
			if (t.kind === "op" && t.text === ".") {
				this.next();
				const name = this.next();
				if (name.kind !== "name") this.fail(`expected an attribute name after '.' but found ${describe(name)}`, name.pos);
				e = freeze({
					k: "attr",
					base: e,
					name: name.text
				});
			} else if (t.kind === "op" && t.text === "(") e = this.parseCall(e, t);
			else if (t.kind === "op" && t.text === "[") {
				this.next();
				this.enter();
				const index = [];
				while (!this.isOp("]")) {
					if (this.isOp(":")) this.fail("slices are not supported");
					index.push(this.parseExpr());
					if (this.isOp(":")) this.fail("slices are not supported");
					if (!this.isOp(",")) break;
					this.next();
				}
				this.expectOp("]");
				this.leave();
				if (index.length === 0) this.fail("empty subscript", t.pos);
				e = freeze({
					k: "subscript",
					base: e,
					index: freeze(index)
				});
			} else if (this.mode === "typed" && t.kind === "name" && !t.spaceBefore && COMPLEX_SUFFIXES.has(t.text) && this.tokens[this.pos - 1]?.text === ")") {
				this.next();
				e = freeze({
					k: "call",
					fn: COMPLEX_TYPE_BY_SUFFIX[t.text],
					args: freeze([e]),
					kwargs: freeze([])
				});
			} else return e;
		}
	}
	parseCall(callee, open) {
		const fn = dottedName(callee);
		if (fn === null) this.fail("only named functions can be called", open.pos);
		this.next();
		this.enter();
		const args = [];
		const kwargs = [];
		while (!this.isOp(")")) {
			const t = this.peek();
			if (t.kind === "name" && this.isOp("=", 1)) {
				this.next();
				this.next();
				kwargs.push(freeze([t.text, this.parseExpr()]));
			} else {
				if (t.kind === "op" && (t.text === "*" || t.text === "**")) this.fail("argument unpacking is not supported");
				if (kwargs.length > 0) this.fail("positional argument after keyword argument");
				args.push(this.parseExpr());
			}
			if (!this.isOp(",")) break;
			this.next();
		}
		this.expectOp(")");
		this.leave();
		if (fn === "symbol" && this.mode === "typed") return this.typedSymbol(args, kwargs, open);
		return freeze({
			k: "call",
			fn,
			args: freeze(args),
			kwargs: freeze(kwargs)
		});
	}
	/** `symbol($n, dtype=dace.int64, nonnegative=True)` → the symbol with its dtype (assumptions are dropped). */
	typedSymbol(args, kwargs, open) {
		const target = args[0];
		if (args.length !== 1 || target === void 0 || target.k !== "sym") this.fail("symbol(...) takes exactly one $-symbol as positional argument", open.pos);
		const dtypeArg = kwargs.find(([key]) => key === "dtype")?.[1];
		if (dtypeArg === void 0) return target;
		const dtype = dottedName(dtypeArg);
		if (dtype === null) this.fail("symbol(...) dtype must be a type name such as dace.int64", open.pos);
		return freeze({
			k: "sym",
			name: target.name,
			dtype: dtype.startsWith("dace.") ? dtype.slice(5) : dtype
		});
	}
	parseAtom() {
		const t = this.next();
		switch (t.kind) {
			case "int": return freeze(t.suffix === void 0 ? {
				k: "int",
				v: t.intValue
			} : {
				k: "int",
				v: t.intValue,
				suffix: t.suffix
			});
			case "float": {
				const text = /[.eE]/.test(t.text) || !/^[0-9]+$/.test(t.text) ? t.text : `${t.text}.0`;
				if (t.suffix !== void 0 && COMPLEX_SUFFIXES.has(t.suffix)) {
					const real = freeze({
						k: "float",
						v: t.floatValue,
						text
					});
					return freeze({
						k: "call",
						fn: COMPLEX_TYPE_BY_SUFFIX[t.suffix],
						args: freeze([real]),
						kwargs: freeze([])
					});
				}
				return freeze(t.suffix === void 0 ? {
					k: "float",
					v: t.floatValue,
					text
				} : {
					k: "float",
					v: t.floatValue,
					text,
					suffix: t.suffix
				});
			}
			case "imag": {
				const text = /[.eE]/.test(t.text) ? t.text : `${t.text}.0`;
				const imag = freeze({
					k: "float",
					v: t.floatValue,
					text
				});
				return freeze({
					k: "call",
					fn: "complex",
					args: freeze([freeze({
						k: "int",
						v: 0n
					}), imag]),
					kwargs: freeze([])
				});
			}
			case "sym": return freeze({
				k: "sym",
				name: t.text
			});
			case "name": return this.nameAtom(t);
			case "op":
				if (t.text === "(") return this.parenthesized(t);
				return this.fail(`unexpected ${describe(t)}`, t.pos);
			default: return this.fail(`unexpected ${describe(t)}`, t.pos);
		}
	}
	nameAtom(t) {
		switch (t.text) {
			case "True": return freeze({
				k: "bool",
				v: true
			});
			case "False": return freeze({
				k: "bool",
				v: false
			});
			case "None": return freeze({ k: "none" });
			case "and":
			case "or":
			case "if":
			case "else":
			case "elif":
			case "not":
			case "pass": return this.fail(`unexpected keyword '${t.text}'`, t.pos);
			default:
				if (UNSUPPORTED_KEYWORDS.has(t.text)) return this.fail(`'${t.text}' is not supported`, t.pos);
				return freeze({
					k: "sym",
					name: t.text
				});
		}
	}
	parenthesized(open) {
		this.enter();
		if (this.isOp(")")) {
			this.next();
			this.leave();
			return freeze({
				k: "tuple",
				items: freeze([])
			});
		}
		const first = this.parseExpr();
		let result = first;
		if (this.isOp(",")) {
			const items = [first];
			while (this.isOp(",")) {
				this.next();
				if (this.isOp(")")) break;
				items.push(this.parseExpr());
			}
			result = freeze({
				k: "tuple",
				items: freeze(items)
			});
		}
		if (!this.isOp(")")) this.fail(`expected ')' to close the '(' at column ${open.pos + 1} but found ${describe(this.peek())}`);
		this.next();
		this.leave();
		return result;
	}
	/** `lambda a, b: body`, optionally in parentheses: the only place a lambda is valid (a memlet's WCR). */
	parseLambda() {
		const wrapped = this.isOp("(");
		if (wrapped) this.next();
		if (!this.isName("lambda")) this.fail(`expected 'lambda' but found ${describe(this.peek())}`);
		this.next();
		const params = [];
		while (!this.isOp(":")) {
			const t = this.next();
			if (t.kind !== "name" || UNSUPPORTED_KEYWORDS.has(t.text)) this.fail(`expected a parameter name but found ${describe(t)}`, t.pos);
			if (params.includes(t.text)) this.fail(`duplicate parameter '${t.text}'`, t.pos);
			params.push(t.text);
			if (!this.isOp(",")) break;
			this.next();
		}
		this.expectOp(":");
		const body = this.parseExpr();
		if (wrapped) this.expectOp(")");
		return Object.freeze({
			params: Object.freeze(params),
			body
		});
	}
	parseStatements() {
		const body = [];
		while (!this.atEnd()) {
			const t = this.peek();
			if (t.kind === "newline") {
				this.next();
				continue;
			}
			if (t.kind === "indent") this.fail("unexpected indentation");
			if (t.kind === "dedent") this.fail("unexpected dedent");
			this.parseStatement(body);
		}
		return body;
	}
	/** One statement or one `;`-separated line of simple statements, appended to `out`. */
	parseStatement(out) {
		if (this.isName("if")) {
			out.push(this.parseIf());
			return;
		}
		if (this.isName("elif") || this.isName("else")) this.fail(`'${this.peek().text}' without a matching 'if'`);
		this.parseSimpleLine(out);
	}
	parseSimpleLine(out) {
		for (;;) {
			out.push(this.parseSimpleStatement());
			if (!this.isOp(";")) break;
			this.next();
			const t = this.peek();
			if (t.kind === "newline" || t.kind === "eof") break;
		}
		const end = this.peek();
		if (end.kind === "newline") this.next();
		else if (end.kind !== "eof" && end.kind !== "dedent") this.fail(`unexpected ${describe(end)}`);
	}
	parseSimpleStatement() {
		if (this.isName("pass")) {
			this.next();
			return freeze({ k: "pass" });
		}
		const t = this.peek();
		if (t.kind === "name" && UNSUPPORTED_KEYWORDS.has(t.text)) this.fail(`'${t.text}' statements are not supported`);
		const first = this.parseExprOrTuple();
		const next = this.peek();
		if (next.kind === "op" && next.text in AUGMENTED) {
			this.checkTarget(first, t.pos);
			this.next();
			const value = this.parseExprOrTuple();
			return freeze({
				k: "augassign",
				op: AUGMENTED[next.text],
				target: first,
				value
			});
		}
		if (!this.isOp("=")) return freeze({
			k: "expr",
			e: first
		});
		const chain = [first];
		const positions = [t.pos];
		while (this.isOp("=")) {
			this.next();
			positions.push(this.peek().pos);
			chain.push(this.parseExprOrTuple());
		}
		const value = chain.pop();
		chain.forEach((target, i) => this.checkTarget(target, positions[i]));
		return freeze({
			k: "assign",
			targets: freeze(chain),
			value
		});
	}
	checkTarget(target, at) {
		if (target.k === "sym" || target.k === "subscript" || target.k === "attr") return;
		if (target.k === "tuple" && target.items.length > 0) {
			for (const item of target.items) this.checkTarget(item, at);
			return;
		}
		this.fail("cannot assign to this expression", at);
	}
	parseIf() {
		const keyword = this.next();
		const cond = this.parseExpr();
		this.expectOp(":");
		const then = this.parseSuite(keyword);
		let otherwise = [];
		if (this.isName("elif")) otherwise = [this.parseIf()];
		else if (this.isName("else")) {
			const elseKeyword = this.next();
			this.expectOp(":");
			otherwise = this.parseSuite(elseKeyword);
		}
		return freeze({
			k: "if",
			cond,
			then: freeze(then),
			else: freeze(otherwise)
		});
	}
	parseSuite(owner) {
		const body = [];
		if (this.peek().kind !== "newline") {
			this.parseSimpleLine(body);
			return body;
		}
		this.next();
		if (this.peek().kind !== "indent") this.fail(`expected an indented block after '${owner.text}' at column ${owner.pos + 1}`);
		this.next();
		this.enter();
		while (this.peek().kind !== "dedent" && !this.atEnd()) {
			if (this.peek().kind === "newline") {
				this.next();
				continue;
			}
			if (this.peek().kind === "indent") this.fail("unexpected indentation");
			this.parseStatement(body);
		}
		if (this.peek().kind === "dedent") this.next();
		this.leave();
		return body;
	}
};
function describe(t) {
	switch (t.kind) {
		case "eof": return "end of input";
		case "newline": return "end of line";
		case "indent": return "indentation";
		case "dedent": return "dedent";
		case "sym": return `symbol '$${t.text}'`;
		default: return `'${t.text}'`;
	}
}
/** `math.exp` for the callee tree of a dotted name, null for anything else. */
function dottedName(e) {
	const parts = [];
	let cur = e;
	while (cur.k === "attr") {
		parts.push(cur.name);
		cur = cur.base;
	}
	if (cur.k !== "sym" || cur.dtype !== void 0 || cur.name === "?") return null;
	parts.push(cur.name);
	return parts.reverse().join(".");
}
const SYM_CACHE_GENERATION = 5e4;
let symCacheCurrent = /* @__PURE__ */ new Map();
let symCachePrevious = /* @__PURE__ */ new Map();
function rememberSym(key, e) {
	if (symCacheCurrent.size >= SYM_CACHE_GENERATION) {
		symCachePrevious = symCacheCurrent;
		symCacheCurrent = /* @__PURE__ */ new Map();
	}
	symCacheCurrent.set(key, e);
}
/**
* Parses a symbolic property (shape, range field, symbol mapping value, …). Results are memoised by
* (grammar, text) in a bounded map because the same few strings repeat millions of times in big files.
* The returned tree is frozen and shared between callers.
*/
function parseSym(src, grammar) {
	const key = grammar === "typed" ? `t${src}` : `l${src}`;
	const hit = symCacheCurrent.get(key);
	if (hit !== void 0) return hit;
	const older = symCachePrevious.get(key);
	if (older !== void 0) {
		rememberSym(key, older);
		return older;
	}
	const parser = new Parser(src, tokenize(src, grammar, false), grammar);
	if (parser.atEnd()) parser.fail("empty expression");
	const e = parser.parseExpr();
	parser.expectEnd();
	rememberSym(key, e);
	return e;
}
/** Parses one Python expression (a condition, an interstate assignment value, a loop condition). */
function parsePython(src) {
	const parser = new Parser(src, tokenize(src, "python", false), "python");
	if (parser.atEnd()) parser.fail("empty expression");
	const e = parser.parseExprOrTuple();
	parser.expectEnd();
	return e;
}
/** Typed iff some sample has `$` followed by a letter, `_` or `?` (sdfg-format.md §10.3). */
function detectGrammar(samples) {
	for (const s of samples) {
		let at = s.indexOf("$");
		while (at !== -1 && at + 1 < s.length) {
			const c = s.charCodeAt(at + 1);
			if (c >= 97 && c <= 122 || c >= 65 && c <= 90 || c === 95 || c === 63) return "typed";
			at = s.indexOf("$", at + 1);
		}
	}
	return "legacy";
}
// electron/engine/symbolic/evaluate.ts
/**
* Exact evaluation. Integers and `/` stay exact rationals (bigint numerator/denominator) because sizes of
* big programs pass 2^53 (`N**5`, products of many extents); floats appear only where the expression
* itself asks for them (a float literal, a float cast, a math function, a float-typed symbol).
*/
const MAX_RESULT_BITS = 1e6;
const ONE$1 = {
	k: "rat",
	n: 1n,
	d: 1n
};
const ZERO = {
	k: "rat",
	n: 0n,
	d: 1n
};
function abs(x) {
	return x < 0n ? -x : x;
}
function gcd(a, b) {
	a = abs(a);
	b = abs(b);
	while (b !== 0n) [a, b] = [b, a % b];
	return a;
}
function bitLength(x) {
	return abs(x).toString(2).length;
}
function rat(n, d = 1n) {
	if (d === 0n) throw new Error("division by zero");
	if (d < 0n) {
		n = -n;
		d = -d;
	}
	if (d === 1n) return {
		k: "rat",
		n,
		d
	};
	const g = gcd(n, d);
	return g === 1n ? {
		k: "rat",
		n,
		d
	} : {
		k: "rat",
		n: n / g,
		d: d / g
	};
}
/** ⌊n/d⌋ for d ≠ 0. */
function floorDiv$1(n, d) {
	if (d === 0n) throw new Error("division by zero");
	const q = n / d;
	return n % d !== 0n && n < 0n !== d < 0n ? q - 1n : q;
}
/** ⌈n/d⌉ for d ≠ 0. */
function ceilDiv$1(n, d) {
	return -floorDiv$1(-n, d);
}
function valueToNumber(v) {
	if (v.k === "float") return v.v;
	if (v.k === "bool") return v.v ? 1 : 0;
	if (v.d === 1n) return Number(v.n);
	const shift = BigInt(Math.max(0, Math.max(bitLength(v.n), bitLength(v.d)) - 1e3));
	return Number(v.n >> shift) / Number(v.d >> shift);
}
function truthy(v) {
	if (v.k === "bool") return v.v;
	if (v.k === "float") return v.v !== 0;
	return v.n !== 0n;
}
/** Bools take part in arithmetic as 0/1, as in Python. */
function arith(v) {
	return v.k === "bool" ? v.v ? ONE$1 : ZERO : v;
}
function asInteger(v, what) {
	const a = arith(v);
	if (a.k === "rat" && a.d === 1n) return a.n;
	if (a.k === "float" && Number.isInteger(a.v)) return BigInt(a.v);
	throw new Error(`${what} needs integer operands, got ${describeValue$1(v)}`);
}
function describeValue$1(v) {
	if (v.k === "bool") return v.v ? "True" : "False";
	if (v.k === "float") return String(v.v);
	return v.d === 1n ? v.n.toString() : `${v.n}/${v.d}`;
}
function fromNumber(x) {
	return Number.isInteger(x) ? {
		k: "rat",
		n: BigInt(x),
		d: 1n
	} : {
		k: "float",
		v: x
	};
}
function compare(a, b) {
	const x = arith(a);
	const y = arith(b);
	if (x.k === "rat" && y.k === "rat") {
		const diff = x.n * y.d - y.n * x.d;
		return diff < 0n ? -1 : diff > 0n ? 1 : 0;
	}
	const p = valueToNumber(x);
	const q = valueToNumber(y);
	if (Number.isNaN(p) || Number.isNaN(q)) return NaN;
	return p < q ? -1 : p > q ? 1 : 0;
}
function power(base, exponent) {
	const b = arith(base);
	const e = arith(exponent);
	if (b.k === "rat" && e.k === "rat" && e.d === 1n) {
		const k = e.n < 0n ? -e.n : e.n;
		const resultBits = Math.max(bitLength(b.n), bitLength(b.d)) * Number(k);
		if (resultBits > MAX_RESULT_BITS && abs(b.n) !== 1n && b.n !== 0n) throw new Error(`power result too large (about ${resultBits} bits)`);
		const n = b.n ** k;
		const d = b.d ** k;
		if (e.n >= 0n) return rat(n, d);
		if (n === 0n) throw new Error("zero raised to a negative power");
		return rat(d, n);
	}
	return {
		k: "float",
		v: Math.pow(valueToNumber(b), valueToNumber(e))
	};
}
function applyBinary(op, left, right) {
	switch (op) {
		case "==": return {
			k: "bool",
			v: compare(left, right) === 0
		};
		case "!=": return {
			k: "bool",
			v: compare(left, right) !== 0
		};
		case "<": return {
			k: "bool",
			v: compare(left, right) < 0
		};
		case "<=": return {
			k: "bool",
			v: compare(left, right) <= 0
		};
		case ">": return {
			k: "bool",
			v: compare(left, right) > 0
		};
		case ">=": return {
			k: "bool",
			v: compare(left, right) >= 0
		};
		case "and": return truthy(left) ? right : left;
		case "or": return truthy(left) ? left : right;
		case "&":
		case "|":
		case "^": {
			if (left.k === "bool" && right.k === "bool") return {
				k: "bool",
				v: op === "&" ? left.v && right.v : op === "|" ? left.v || right.v : left.v !== right.v
			};
			const x = asInteger(left, `'${op}'`);
			const y = asInteger(right, `'${op}'`);
			return rat(op === "&" ? x & y : op === "|" ? x | y : x ^ y);
		}
		case "<<":
		case ">>": {
			const x = asInteger(left, `'${op}'`);
			const y = asInteger(right, `'${op}'`);
			if (y < 0n) throw new Error("negative shift count");
			if (op === "<<" && y > BigInt(MAX_RESULT_BITS)) throw new Error("shift result too large");
			return rat(op === "<<" ? x << y : x >> y);
		}
		case "**": return power(left, right);
	}
	const x = arith(left);
	const y = arith(right);
	if (x.k === "rat" && y.k === "rat") switch (op) {
		case "+": return rat(x.n * y.d + y.n * x.d, x.d * y.d);
		case "-": return rat(x.n * y.d - y.n * x.d, x.d * y.d);
		case "*": return rat(x.n * y.n, x.d * y.d);
		case "/": return rat(x.n * y.d, x.d * y.n);
		case "//": return rat(floorDiv$1(x.n * y.d, x.d * y.n));
		case "%": {
			const q = floorDiv$1(x.n * y.d, x.d * y.n);
			return rat(x.n * y.d - q * y.n * x.d, x.d * y.d);
		}
	}
	const p = valueToNumber(x);
	const q = valueToNumber(y);
	switch (op) {
		case "+": return {
			k: "float",
			v: p + q
		};
		case "-": return {
			k: "float",
			v: p - q
		};
		case "*": return {
			k: "float",
			v: p * q
		};
		case "/":
			if (q === 0) throw new Error("division by zero");
			return {
				k: "float",
				v: p / q
			};
		case "//":
			if (q === 0) throw new Error("division by zero");
			return {
				k: "float",
				v: Math.floor(p / q)
			};
		case "%": {
			if (q === 0) throw new Error("division by zero");
			const r = p % q;
			return {
				k: "float",
				v: r !== 0 && r < 0 !== q < 0 ? r + q : r
			};
		}
	}
	throw new Error(`unknown operator '${op}'`);
}
function floorValue(v) {
	const x = arith(v);
	if (x.k === "rat") return rat(floorDiv$1(x.n, x.d));
	return fromNumber(Math.floor(x.v));
}
function ceilValue(v) {
	const x = arith(v);
	if (x.k === "rat") return rat(ceilDiv$1(x.n, x.d));
	return fromNumber(Math.ceil(x.v));
}
function truncValue(v) {
	const x = arith(v);
	if (x.k === "rat") return x.n / x.d;
	if (!Number.isFinite(x.v)) throw new Error(`cannot convert ${x.v} to an integer`);
	return BigInt(Math.trunc(x.v));
}
const INTEGER_TYPES = {
	int8: {
		bits: 8,
		signed: true
	},
	int16: {
		bits: 16,
		signed: true
	},
	int32: {
		bits: 32,
		signed: true
	},
	int64: {
		bits: 64,
		signed: true
	},
	uint8: {
		bits: 8,
		signed: false
	},
	uint16: {
		bits: 16,
		signed: false
	},
	uint32: {
		bits: 32,
		signed: false
	},
	uint64: {
		bits: 64,
		signed: false
	}
};
const FLOAT_TYPES = /* @__PURE__ */ new Set([
	"float",
	"float16",
	"float32",
	"float64",
	"bfloat16",
	"double"
]);
/** `int32`, `dace.int64`, `np.uint8`… → the integer type. */
function integerTypeOf(fn) {
	return INTEGER_TYPES[stripModule(fn)];
}
function isFloatTypeName(name) {
	return FLOAT_TYPES.has(stripModule(name));
}
function stripModule(fn) {
	const dot = fn.lastIndexOf(".");
	return dot === -1 ? fn : fn.slice(dot + 1);
}
/** C-style conversion: truncate toward zero, then wrap to the type's width. */
function castInteger(v, type) {
	const raw = truncValue(v);
	return rat(type.signed ? BigInt.asIntN(type.bits, raw) : BigInt.asUintN(type.bits, raw));
}
const MATH_FUNCTIONS = {
	exp: Math.exp,
	log: (x, base) => base === void 0 ? Math.log(x) : Math.log(x) / Math.log(base),
	log2: Math.log2,
	log10: Math.log10,
	sqrt: Math.sqrt,
	sin: Math.sin,
	cos: Math.cos,
	tan: Math.tan,
	asin: Math.asin,
	acos: Math.acos,
	atan: Math.atan,
	atan2: (y, x) => Math.atan2(y, x ?? 1),
	sinh: Math.sinh,
	cosh: Math.cosh,
	tanh: Math.tanh,
	pow: (x, y) => Math.pow(x, y ?? 1),
	fabs: Math.abs,
	expm1: Math.expm1,
	log1p: Math.log1p,
	cbrt: Math.cbrt,
	erf
};
/** Names that evaluate to floats: the math library and float casts. toCpp and simplify consult this too. */
function isFloatFunction(fn) {
	const base = stripModule(fn);
	if (isFloatTypeName(fn)) return true;
	return base in MATH_FUNCTIONS && (fn === base || fn.startsWith("math.") || fn.startsWith("np.") || fn.startsWith("numpy."));
}
function erf(x) {
	const sign = x < 0 ? -1 : 1;
	const t = 1 / (1 + .3275911 * Math.abs(x));
	return sign * (1 - ((((1.061405429 * t - 1.453152027) * t + 1.421413741) * t - .284496736) * t + .254829592) * t * Math.exp(-x * x));
}
const MODULE_CONSTANTS = {
	"math.pi": Math.PI,
	"math.e": Math.E,
	"math.inf": Infinity,
	"math.nan": NaN,
	"math.tau": 2 * Math.PI,
	"np.pi": Math.PI,
	"numpy.pi": Math.PI,
	"np.e": Math.E,
	"numpy.e": Math.E
};
function moduleConstant(dotted) {
	return MODULE_CONSTANTS[dotted];
}
function arity(fn, args, min, max = min) {
	if (args.length < min || args.length > max) {
		const expected = min === max ? `${min}` : max === Infinity ? `at least ${min}` : `${min} to ${max}`;
		throw new Error(`${fn}() takes ${expected} argument(s), got ${args.length}`);
	}
}
function callFunction(e, env) {
	const fn = e.fn;
	if (fn === "Piecewise") {
		for (const piece of e.args) {
			if (piece.k !== "tuple" || piece.items.length !== 2) throw new Error("Piecewise() arguments must be (value, condition) pairs");
			if (truthy(evaluate$1(piece.items[1], env))) return evaluate$1(piece.items[0], env);
		}
		throw new Error("Piecewise(): no condition holds");
	}
	if (fn === "SymExpr") {
		if (e.args.length < 1 || e.args.length > 2) throw new Error("SymExpr() takes 1 or 2 arguments");
		return evaluate$1(e.args[0], env);
	}
	const args = e.args.map((a) => evaluate$1(a, env));
	const base = stripModule(fn);
	switch (fn) {
		case "int_floor":
		case "__int_floor":
		case "floor_div":
			arity(fn, args, 2);
			return applyBinary("//", args[0], args[1]);
		case "int_ceil":
			arity(fn, args, 2);
			return ceilValue(applyBinary("/", args[0], args[1]));
		case "Mod":
		case "mod":
			arity(fn, args, 2);
			return applyBinary("%", args[0], args[1]);
		case "floor":
		case "math.floor":
		case "np.floor":
			if (args.length === 2) return applyBinary("//", args[0], args[1]);
			arity(fn, args, 1);
			return floorValue(args[0]);
		case "ceiling":
		case "ceil":
		case "math.ceil":
		case "np.ceil":
			arity(fn, args, 1);
			return ceilValue(args[0]);
		case "Max":
		case "max":
		case "Min":
		case "min": {
			arity(fn, args, 1, Infinity);
			const wantMax = fn === "Max" || fn === "max";
			let best = args[0];
			for (const v of args.slice(1)) {
				const c = compare(v, best);
				if (wantMax ? c > 0 : c < 0) best = v;
			}
			return best;
		}
		case "Abs":
		case "abs":
		case "math.fabs": {
			arity(fn, args, 1);
			const x = arith(args[0]);
			const r = x.k === "rat" ? rat(abs(x.n), x.d) : {
				k: "float",
				v: Math.abs(x.v)
			};
			return fn === "math.fabs" ? {
				k: "float",
				v: valueToNumber(r)
			} : r;
		}
		case "int":
			arity(fn, args, 1);
			return rat(truncValue(args[0]));
		case "bool":
			arity(fn, args, 1);
			return {
				k: "bool",
				v: truthy(args[0])
			};
		case "Eq":
		case "Ne":
		case "Lt":
		case "Le":
		case "Gt":
		case "Ge": {
			arity(fn, args, 2);
			const op = {
				Eq: "==",
				Ne: "!=",
				Lt: "<",
				Le: "<=",
				Gt: ">",
				Ge: ">="
			}[fn];
			return applyBinary(op, args[0], args[1]);
		}
		case "And":
		case "Or":
			arity(fn, args, 1, Infinity);
			return {
				k: "bool",
				v: fn === "And" ? args.every(truthy) : args.some(truthy)
			};
		case "Not":
			arity(fn, args, 1);
			return {
				k: "bool",
				v: !truthy(args[0])
			};
		case "round": {
			arity(fn, args, 1);
			const x = valueToNumber(args[0]);
			const r = Math.round(x);
			return rat(BigInt(Math.abs(x % 1) === .5 && r % 2 !== 0 ? r - 1 : r));
		}
		case "bitwise_and":
		case "bitwise_or":
		case "bitwise_xor": {
			arity(fn, args, 2);
			const x = asInteger(args[0], fn);
			const y = asInteger(args[1], fn);
			return rat(fn === "bitwise_and" ? x & y : fn === "bitwise_or" ? x | y : x ^ y);
		}
		case "bitwise_not":
			arity(fn, args, 1);
			return rat(~asInteger(args[0], fn));
		case "bitwise_set":
		case "bitwise_clear":
		case "bitwise_test": {
			arity(fn, args, 2);
			const x = asInteger(args[0], fn);
			const bit = asInteger(args[1], fn);
			if (bit < 0n || bit > 1024n) throw new Error(`${fn}(): bit position ${bit} out of range`);
			if (fn === "bitwise_set") return rat(x | 1n << bit);
			if (fn === "bitwise_clear") return rat(x & ~(1n << bit));
			return {
				k: "bool",
				v: (x >> bit & 1n) === 1n
			};
		}
		case "bitwise_shift": {
			arity(fn, args, 2);
			const x = asInteger(args[0], fn);
			const by = asInteger(args[1], fn);
			if (by > BigInt(MAX_RESULT_BITS)) throw new Error("shift result too large");
			return rat(by >= 0n ? x << by : x >> -by);
		}
		case "complex":
		case "dace.complex64":
		case "dace.complex128": throw new Error(`complex values are not supported (${fn})`);
	}
	const intType = integerTypeOf(fn);
	if (intType !== void 0 && (fn === base || fn.startsWith("dace.") || fn.startsWith("np.") || fn.startsWith("numpy."))) {
		arity(fn, args, 1);
		return castInteger(args[0], intType);
	}
	if (isFloatTypeName(fn)) {
		arity(fn, args, 1);
		const x = valueToNumber(args[0]);
		return {
			k: "float",
			v: base === "float32" ? Math.fround(x) : x
		};
	}
	if (isFloatFunction(fn)) {
		const f = MATH_FUNCTIONS[base];
		arity(fn, args, 1, f.length >= 2 || base === "log" ? 2 : 1);
		const x = valueToNumber(args[0]);
		return {
			k: "float",
			v: args.length === 2 ? f(x, valueToNumber(args[1])) : f(x)
		};
	}
	throw new Error(`unknown function '${fn}'`);
}
function symbolValue(e, env) {
	const raw = env(e.name);
	if (raw === void 0) throw new UnboundSymbolError(e.name);
	if (typeof raw === "boolean") return {
		k: "bool",
		v: raw
	};
	if (typeof raw === "bigint") return e.dtype !== void 0 && isFloatTypeName(e.dtype) ? {
		k: "float",
		v: Number(raw)
	} : rat(raw);
	if (e.dtype !== void 0 && isFloatTypeName(e.dtype)) return {
		k: "float",
		v: raw
	};
	return fromNumber(raw);
}
/**
* Evaluates `e`. Throws UnboundSymbolError for a symbol `env` does not bind and Error for anything
* meaningless (division by zero, unknown function, complex values, reads of data containers).
*/
function evaluate$1(e, env) {
	switch (e.k) {
		case "int": return rat(e.v);
		case "float": return {
			k: "float",
			v: e.v
		};
		case "bool": return {
			k: "bool",
			v: e.v
		};
		case "none": throw new Error("None has no value");
		case "sym": return symbolValue(e, env);
		case "bin": {
			const { spine, base } = leftSpine(e);
			let acc = evaluate$1(base, env);
			for (let i = spine.length - 1; i >= 0; i--) {
				const node = spine[i];
				if (node.op === "and") acc = truthy(acc) ? evaluate$1(node.b, env) : acc;
				else if (node.op === "or") acc = truthy(acc) ? acc : evaluate$1(node.b, env);
				else acc = applyBinary(node.op, acc, evaluate$1(node.b, env));
			}
			return acc;
		}
		case "un": {
			const x = evaluate$1(e.a, env);
			switch (e.op) {
				case "not": return {
					k: "bool",
					v: !truthy(x)
				};
				case "+": return arith(x);
				case "-": {
					const y = arith(x);
					return y.k === "rat" ? {
						k: "rat",
						n: -y.n,
						d: y.d
					} : {
						k: "float",
						v: -y.v
					};
				}
				case "~": return rat(~asInteger(x, "'~'"));
			}
			break;
		}
		case "cmpchain": {
			let left = evaluate$1(e.operands[0], env);
			for (let i = 0; i < e.ops.length; i++) {
				const right = evaluate$1(e.operands[i + 1], env);
				if (!truthy(applyBinary(e.ops[i], left, right))) return {
					k: "bool",
					v: false
				};
				left = right;
			}
			return {
				k: "bool",
				v: true
			};
		}
		case "call": return callFunction(e, env);
		case "ternary": return truthy(evaluate$1(e.cond, env)) ? evaluate$1(e.then, env) : evaluate$1(e.else, env);
		case "attr": {
			const dotted = dottedPath(e);
			const constant = dotted === null ? void 0 : moduleConstant(dotted);
			if (constant === void 0) throw new Error(`cannot evaluate attribute '${e.name}'`);
			return {
				k: "float",
				v: constant
			};
		}
		case "subscript": throw new Error("cannot evaluate a read of a data container");
		case "tuple": throw new Error("cannot evaluate a tuple to a single value");
	}
	throw new Error("unknown expression node");
}
/** Integer value, null when a symbol is unbound; throws Error when the value is not an integer. */
function evalInt(e, env) {
	let v;
	try {
		v = evaluate$1(e, (name) => env.get(name));
	} catch (err) {
		if (err instanceof UnboundSymbolError) return null;
		throw err;
	}
	if (v.k === "rat" && v.d === 1n) return v.n;
	if (v.k === "float" && Number.isInteger(v.v)) return BigInt(v.v);
	throw new Error(`expected an integer, got ${describeValue$1(v)}`);
}
// electron/engine/symbolic/show.ts
/** Readable text in the legacy grammar with the fewest parentheses that keep the tree's shape. */
const P_TERNARY = 1;
const P_OR = 2;
const P_AND = 3;
const P_NOT = 4;
const P_CMP = 5;
const P_BOR = 6;
const P_XOR = 7;
const P_BAND = 8;
const P_SHIFT = 9;
const P_ADD = 10;
const P_MUL = 11;
const P_UNARY = 12;
const P_POW = 13;
const P_ATOM = 14;
function binaryPrecedence(op) {
	switch (op) {
		case "or": return P_OR;
		case "and": return P_AND;
		case "|": return P_BOR;
		case "^": return P_XOR;
		case "&": return P_BAND;
		case "<<":
		case ">>": return P_SHIFT;
		case "+":
		case "-": return P_ADD;
		case "*":
		case "/":
		case "//":
		case "%": return P_MUL;
		case "**": return P_POW;
		default: return P_CMP;
	}
}
function wrap(s, needParens) {
	return needParens ? `(${s.text})` : s.text;
}
/** Float literal text that re-parses as a float. */
function floatText(e) {
	if (/^(?:[0-9]+\.[0-9]*|\.[0-9]+|[0-9]+(?:\.[0-9]*)?[eE][+-]?[0-9]+|\.[0-9]+[eE][+-]?[0-9]+)$/.test(e.text) && Number(e.text) === e.v) return e.text;
	return formatFloat(e.v);
}
function formatFloat(v) {
	if (Number.isNaN(v)) return "math.nan";
	if (v === Infinity) return "math.inf";
	if (v === -Infinity) return "-math.inf";
	const s = String(v);
	return /[.e]/.test(s) ? s : `${s}.0`;
}
function leftNeedsParens(op, left) {
	const p = binaryPrecedence(op);
	if (p === P_CMP) return left.prec <= P_CMP;
	if (op === "**") return left.prec <= P_POW;
	return left.prec < p;
}
function rightNeedsParens(op, right) {
	const p = binaryPrecedence(op);
	if (op === "**") return right.prec < P_UNARY;
	return right.prec <= p;
}
function showNode(e) {
	switch (e.k) {
		case "int": return {
			text: e.v.toString(),
			prec: e.v < 0n ? P_UNARY : P_ATOM
		};
		case "float": {
			const text = floatText(e);
			return {
				text,
				prec: text.startsWith("-") ? P_UNARY : P_ATOM
			};
		}
		case "bool": return {
			text: e.v ? "True" : "False",
			prec: P_ATOM
		};
		case "none": return {
			text: "None",
			prec: P_ATOM
		};
		case "sym": return {
			text: e.name,
			prec: P_ATOM
		};
		case "bin": {
			const { spine, base } = leftSpine(e);
			let acc = showNode(base);
			for (let i = spine.length - 1; i >= 0; i--) {
				const node = spine[i];
				const right = showNode(node.b);
				const op = node.op === "*" || node.op === "/" || node.op === "**" ? node.op : ` ${node.op} `;
				acc = {
					text: `${wrap(acc, leftNeedsParens(node.op, acc))}${op}${wrap(right, rightNeedsParens(node.op, right))}`,
					prec: binaryPrecedence(node.op)
				};
			}
			return acc;
		}
		case "un": {
			const operand = showNode(e.a);
			if (e.op === "not") return {
				text: `not ${wrap(operand, operand.prec < P_NOT)}`,
				prec: P_NOT
			};
			return {
				text: `${e.op}${wrap(operand, operand.prec < P_UNARY)}`,
				prec: P_UNARY
			};
		}
		case "cmpchain": {
			const parts = [showOperand(e.operands[0], P_CMP)];
			e.ops.forEach((op, i) => parts.push(op, showOperand(e.operands[i + 1], P_CMP)));
			return {
				text: parts.join(" "),
				prec: P_CMP
			};
		}
		case "call": {
			const args = e.args.map((a) => show(a));
			for (const [key, value] of e.kwargs) args.push(`${key}=${show(value)}`);
			return {
				text: `${e.fn}(${args.join(", ")})`,
				prec: P_ATOM
			};
		}
		case "ternary": {
			const then = showNode(e.then);
			const cond = showNode(e.cond);
			const otherwise = showNode(e.else);
			return {
				text: `${wrap(then, then.prec <= P_TERNARY)} if ${wrap(cond, cond.prec <= P_TERNARY)} else ${otherwise.text}`,
				prec: P_TERNARY
			};
		}
		case "subscript": return {
			text: `${showBase(e.base)}[${e.index.map((i) => show(i)).join(", ")}]`,
			prec: P_ATOM
		};
		case "attr": return {
			text: `${showBase(e.base)}.${e.name}`,
			prec: P_ATOM
		};
		case "tuple": {
			const items = e.items.map((i) => show(i));
			return {
				text: items.length === 1 ? `(${items[0]},)` : `(${items.join(", ")})`,
				prec: P_ATOM
			};
		}
	}
}
function showOperand(e, parentPrec) {
	const s = showNode(e);
	return wrap(s, s.prec <= parentPrec);
}
function showBase(e) {
	const s = showNode(e);
	return wrap(s, s.prec < P_ATOM || e.k === "int" || e.k === "float");
}
/** Legacy-grammar text (no `$`, dtypes and literal suffixes dropped) that parseSym(text, 'legacy') reads back
* to a tree with the same value (a negative literal comes back as a negated one). */
function show(e) {
	return showNode(e).text;
}
// electron/engine/symbolic/transform.ts
/** Tree queries and rewrites: free symbols, substitution, SymExpr approximation, simplification, builders. */
/** Names used as module prefixes in code (`math.pi`); they are not program symbols. */
const MODULE_NAMES = /* @__PURE__ */ new Set([
	"math",
	"np",
	"numpy",
	"dace",
	"cmath",
	"sympy"
]);
function children(e) {
	switch (e.k) {
		case "bin": return [e.a, e.b];
		case "un": return [e.a];
		case "cmpchain": return e.operands;
		case "call": return [...e.args, ...e.kwargs.map(([, v]) => v)];
		case "ternary": return [
			e.cond,
			e.then,
			e.else
		];
		case "subscript": return [e.base, ...e.index];
		case "attr": return e.base.k === "sym" && MODULE_NAMES.has(e.base.name) ? [] : [e.base];
		case "tuple": return e.items;
		default: return [];
	}
}
/** Names of the `sym` nodes: function names and module prefixes (`math` in `math.pi`) are not included. */
function freeSymbols(e) {
	const names = /* @__PURE__ */ new Set();
	const stack = [e];
	while (stack.length > 0) {
		const node = stack.pop();
		if (node.k === "sym") names.add(node.name);
		else for (const c of children(node)) stack.push(c);
	}
	return names;
}
/**
* Rebuilds `e` bottom-up, letting `visit` replace a node before its children are visited (return undefined
* to descend). Left spines of binary operators are handled in a loop to keep deep sums off the call stack.
*/
function rewrite(e, visit) {
	const replaced = visit(e);
	if (replaced !== void 0) return replaced;
	switch (e.k) {
		case "bin": {
			const { spine, base } = leftSpine(e, (node) => visit(node) === void 0);
			let acc = rewrite(base, visit);
			for (let i = spine.length - 1; i >= 0; i--) {
				const node = spine[i];
				const right = rewrite(node.b, visit);
				acc = acc === node.a && right === node.b ? node : {
					k: "bin",
					op: node.op,
					a: acc,
					b: right
				};
			}
			return acc;
		}
		case "un": {
			const a = rewrite(e.a, visit);
			return a === e.a ? e : {
				k: "un",
				op: e.op,
				a
			};
		}
		case "cmpchain": return {
			k: "cmpchain",
			ops: e.ops,
			operands: e.operands.map((o) => rewrite(o, visit))
		};
		case "call": return {
			k: "call",
			fn: e.fn,
			args: e.args.map((a) => rewrite(a, visit)),
			kwargs: e.kwargs.map(([key, v]) => [key, rewrite(v, visit)])
		};
		case "ternary": return {
			k: "ternary",
			cond: rewrite(e.cond, visit),
			then: rewrite(e.then, visit),
			else: rewrite(e.else, visit)
		};
		case "subscript": return {
			k: "subscript",
			base: rewrite(e.base, visit),
			index: e.index.map((i) => rewrite(i, visit))
		};
		case "attr": return {
			k: "attr",
			base: rewrite(e.base, visit),
			name: e.name
		};
		case "tuple": return {
			k: "tuple",
			items: e.items.map((i) => rewrite(i, visit))
		};
		default: return e;
	}
}
/** Replaces symbols by expressions (simultaneously: replacements are not substituted again). */
function substitute(e, map) {
	if (map.size === 0) return e;
	return rewrite(e, (node) => node.k === "sym" ? map.get(node.name) ?? node : void 0);
}
/** The over-approximation of every `SymExpr(exact, approx)` inside `e`: what DaCe allocates. */
function approxOf(e) {
	return rewrite(e, (node) => {
		if (node.k !== "call" || node.fn !== "SymExpr" || node.args.length === 0) return void 0;
		return approxOf(node.args[node.args.length - 1]);
	});
}
const exactCache = /* @__PURE__ */ new WeakMap();
function ownNodeExact(e) {
	switch (e.k) {
		case "float":
		case "none":
		case "subscript":
		case "attr":
		case "tuple": return false;
		case "sym": return e.dtype === void 0 || !isFloatTypeName(e.dtype);
		case "call": return !isFloatFunction(e.fn) && !e.fn.includes("complex");
		default: return true;
	}
}
/** True when `e` has no float literal, float function or float-typed symbol (symbols default to integers). */
function isExact(e) {
	const cached = exactCache.get(e);
	if (cached !== void 0) return cached;
	const stack = [[e, false]];
	while (stack.length > 0) {
		const [node, expanded] = stack.pop();
		if (exactCache.has(node)) continue;
		const kids = node.k === "attr" ? [node.base] : children(node);
		if (!expanded) {
			stack.push([node, true]);
			for (const c of kids) if (!exactCache.has(c)) stack.push([c, false]);
		} else exactCache.set(node, ownNodeExact(node) && kids.every((c) => exactCache.get(c) === true));
	}
	return exactCache.get(e);
}
const int = (v) => ({
	k: "int",
	v
});
const isInt = (e, v) => e.k === "int" && (v === void 0 || e.v === v);
const isLiteral = (e) => e.k === "int" || e.k === "bool";
const MAX_FOLDED_BITS = 4096;
function literalOf(v) {
	if (v.k === "bool") return {
		k: "bool",
		v: v.v
	};
	if (v.k === "rat" && v.d === 1n && v.n.toString(2).length <= MAX_FOLDED_BITS) return int(v.n);
}
/** Evaluates a closed exact subtree to a literal when its value is an integer or a bool. */
function fold(e) {
	try {
		return literalOf(evaluate$1(e, () => void 0)) ?? e;
	} catch {
		return e;
	}
}
/** `k*f1*f2` left-deep, with `k` omitted when 1. */
function product$1(coef, factors) {
	if (factors.length === 0) return int(coef);
	if (coef === -1n && factors.length === 1) return {
		k: "un",
		op: "-",
		a: factors[0]
	};
	let acc = coef === 1n ? factors[0] : {
		k: "bin",
		op: "*",
		a: int(coef),
		b: factors[0]
	};
	for (const f of factors.slice(1)) acc = {
		k: "bin",
		op: "*",
		a: acc,
		b: f
	};
	return acc;
}
/** Splits a simplified term into an integer coefficient and the remaining factors. */
function splitCoefficient(t) {
	if (t.k === "un" && t.op === "-") {
		const inner = splitCoefficient(t.a);
		return {
			coef: -inner.coef,
			factors: inner.factors
		};
	}
	const factors = [];
	let cur = t;
	while (cur.k === "bin" && cur.op === "*") {
		factors.push(cur.b);
		cur = cur.a;
	}
	factors.push(cur);
	factors.reverse();
	if (isInt(factors[0])) return {
		coef: factors[0].v,
		factors: factors.slice(1)
	};
	return {
		coef: 1n,
		factors
	};
}
function simplifySum(e) {
	let constant = 0n;
	const terms = /* @__PURE__ */ new Map();
	const stack = [[e, 1n]];
	while (stack.length > 0) {
		const [node, sign] = stack.pop();
		if (node.k === "bin" && (node.op === "+" || node.op === "-")) {
			stack.push([node.b, node.op === "+" ? sign : -sign], [node.a, sign]);
			continue;
		}
		if (node.k === "un" && (node.op === "-" || node.op === "+")) {
			stack.push([node.a, node.op === "-" ? -sign : sign]);
			continue;
		}
		const leaf = simplifyNode(node);
		if (isInt(leaf)) {
			constant += sign * leaf.v;
			continue;
		}
		const { coef, factors } = splitCoefficient(leaf);
		if (factors.length === 0) {
			constant += sign * coef;
			continue;
		}
		const key = show(product$1(1n, factors));
		const entry = terms.get(key);
		if (entry) entry.coef += sign * coef;
		else terms.set(key, {
			coef: sign * coef,
			factors
		});
	}
	let acc = null;
	for (const { coef, factors } of terms.values()) {
		if (coef === 0n) continue;
		if (acc === null) acc = product$1(coef, factors);
		else if (coef < 0n) acc = {
			k: "bin",
			op: "-",
			a: acc,
			b: product$1(-coef, factors)
		};
		else acc = {
			k: "bin",
			op: "+",
			a: acc,
			b: product$1(coef, factors)
		};
	}
	if (acc === null) return int(constant);
	if (constant > 0n) return {
		k: "bin",
		op: "+",
		a: acc,
		b: int(constant)
	};
	if (constant < 0n) return {
		k: "bin",
		op: "-",
		a: acc,
		b: int(-constant)
	};
	return acc;
}
function simplifyProduct(e) {
	let coef = 1n;
	const factors = [];
	const stack = [e];
	while (stack.length > 0) {
		const node = stack.pop();
		if (node.k === "bin" && node.op === "*") {
			stack.push(node.b, node.a);
			continue;
		}
		const leaf = simplifyNode(node);
		if (isInt(leaf)) coef *= leaf.v;
		else if (leaf.k === "bin" && leaf.op === "*") {
			const split = splitCoefficient(leaf);
			coef *= split.coef;
			factors.push(...split.factors);
		} else factors.push(leaf);
	}
	if (coef === 0n) return int(0n);
	return product$1(coef, factors);
}
function simplifyBinary(e) {
	const { spine, base } = leftSpine(e, (node) => !(isExact(node) && (node.op === "+" || node.op === "-" || node.op === "*")));
	let acc = simplifyNode(base);
	for (let i = spine.length - 1; i >= 0; i--) {
		const node = spine[i];
		acc = simplifyLocal(node.op, acc, simplifyNode(node.b), isExact(node));
	}
	return acc;
}
function simplifyLocal(op, a, b, exact) {
	const node = {
		k: "bin",
		op,
		a,
		b
	};
	if (exact && isLiteral(a) && isLiteral(b)) {
		if (op === "**" && isInt(b) && isInt(a) && a.v !== 0n && a.v !== 1n && a.v !== -1n && a.v.toString(2).length * Number(b.v > 0n ? b.v : 0n) > MAX_FOLDED_BITS) return node;
		return fold(node);
	}
	switch (op) {
		case "+":
			if (isInt(b, 0n)) return a;
			if (isInt(a, 0n)) return b;
			break;
		case "-":
			if (isInt(b, 0n)) return a;
			break;
		case "*":
			if (isInt(b, 1n)) return a;
			if (isInt(a, 1n)) return b;
			break;
		case "/":
			if (isInt(b, 1n)) return a;
			break;
		case "**":
			if (isInt(b, 1n)) return a;
			if (exact && isInt(b, 0n)) return int(1n);
	}
	return node;
}
function simplifyNode(e) {
	switch (e.k) {
		case "int":
		case "float":
		case "bool":
		case "none":
		case "sym": return e;
		case "bin":
			if (isExact(e) && (e.op === "+" || e.op === "-")) return simplifySum(e);
			if (isExact(e) && e.op === "*") return simplifyProduct(e);
			return simplifyBinary(e);
		case "un": {
			if (isExact(e) && (e.op === "-" || e.op === "+")) return simplifySum(e);
			const a = simplifyNode(e.a);
			const node = {
				k: "un",
				op: e.op,
				a
			};
			return isLiteral(a) && isExact(e) ? fold(node) : node;
		}
		case "cmpchain": {
			const operands = e.operands.map(simplifyNode);
			const node = {
				k: "cmpchain",
				ops: e.ops,
				operands
			};
			return isExact(e) && operands.every(isLiteral) ? fold(node) : node;
		}
		case "call": {
			const args = e.args.map(simplifyNode);
			const node = {
				k: "call",
				fn: e.fn,
				args,
				kwargs: e.kwargs.map(([key, v]) => [key, simplifyNode(v)])
			};
			return isExact(e) && e.kwargs.length === 0 && args.every(isLiteral) ? fold(node) : node;
		}
		case "ternary": {
			const cond = simplifyNode(e.cond);
			if (isLiteral(cond)) return simplifyNode((cond.k === "bool" ? cond.v : isInt(cond) && cond.v !== 0n) ? e.then : e.else);
			return {
				k: "ternary",
				cond,
				then: simplifyNode(e.then),
				else: simplifyNode(e.else)
			};
		}
		case "subscript": return {
			k: "subscript",
			base: simplifyNode(e.base),
			index: e.index.map(simplifyNode)
		};
		case "attr": return {
			k: "attr",
			base: simplifyNode(e.base),
			name: e.name
		};
		case "tuple": return {
			k: "tuple",
			items: e.items.map(simplifyNode)
		};
	}
}
/**
* Constant folding, `x+0`, `x*1`, `x*0`, merging of integer constants and like terms in sums and products.
* Never changes the value: reassociation and `x*0 → 0` are applied only to float-free subtrees (symbols
* without a float dtype count as integers, as DaCe's size symbols are); float subtrees get only the
* identities that hold in IEEE arithmetic.
*/
function simplify(e) {
	return simplifyNode(e);
}
/** Builders that simplify as they go. */
const E = {
	int(n) {
		if (typeof n === "number" && !Number.isSafeInteger(n)) throw new Error(`E.int(${n}): not a safe integer`);
		return int(BigInt(n));
	},
	sym(name) {
		return {
			k: "sym",
			name
		};
	},
	add(a, b) {
		return simplify({
			k: "bin",
			op: "+",
			a,
			b
		});
	},
	sub(a, b) {
		return simplify({
			k: "bin",
			op: "-",
			a,
			b
		});
	},
	mul(a, b) {
		return simplify({
			k: "bin",
			op: "*",
			a,
			b
		});
	},
	/** Exact (rational) division, as `/` in symbolic fields. */
	div(a, b) {
		return simplify({
			k: "bin",
			op: "/",
			a,
			b
		});
	},
	call(fn, ...args) {
		return simplify({
			k: "call",
			fn,
			args,
			kwargs: []
		});
	}
};
String.raw`#ifndef TLAB_SYMBOLIC_HELPERS
#define TLAB_SYMBOLIC_HELPERS
#include <cmath>
#include <complex>
#include <cstdint>
#include <limits>
#include <type_traits>

// Python/SymPy integer semantics: floor division, modulo with the divisor's sign, exact powers.
template <class A, class B>
static inline auto tlab_int_floor(A a, B b) {
  using T = std::common_type_t<A, B>;
  if constexpr (std::is_integral_v<T>) {
    const T x = static_cast<T>(a), y = static_cast<T>(b);
    const T q = x / y;
    return (x % y != 0 && ((x < 0) != (y < 0))) ? static_cast<T>(q - 1) : q;
  } else {
    return std::floor(static_cast<T>(a) / static_cast<T>(b));
  }
}

template <class A, class B>
static inline auto tlab_int_ceil(A a, B b) {
  using T = std::common_type_t<A, B>;
  if constexpr (std::is_integral_v<T>) {
    const T x = static_cast<T>(a), y = static_cast<T>(b);
    const T q = x / y;
    return (x % y != 0 && ((x < 0) == (y < 0))) ? static_cast<T>(q + 1) : q;
  } else {
    return std::ceil(static_cast<T>(a) / static_cast<T>(b));
  }
}

// Python 3 true division in code: only integer operands are promoted (to double).
template <class A, class B>
static inline auto tlab_truediv(A a, B b) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B>) return static_cast<double>(a) / static_cast<double>(b);
  else return a / b;
}

// Exact rational division brought to one fraction: exact when it divides, floored otherwise.
template <class A, class B>
static inline auto tlab_div(A a, B b) {
  using T = std::common_type_t<A, B>;
  if constexpr (std::is_integral_v<T>) return tlab_int_floor(a, b);
  else return static_cast<T>(a) / static_cast<T>(b);
}

template <class A, class B>
static inline auto tlab_py_mod(A a, B b) {
  using T = std::common_type_t<A, B>;
  if constexpr (std::is_integral_v<T>) {
    const T x = static_cast<T>(a), y = static_cast<T>(b);
    const T r = x % y;
    return (r != 0 && ((r < 0) != (y < 0))) ? static_cast<T>(r + y) : r;
  } else {
    const T y = static_cast<T>(b);
    const T r = std::fmod(static_cast<T>(a), y);
    return (r != 0 && ((r < 0) != (y < 0))) ? static_cast<T>(r + y) : r;
  }
}

// Integer base and exponent: square-and-multiply; a negative exponent floors 1/a^k like tlab_div does.
template <class A, class B>
static inline auto tlab_ipow(A a, B b) {
  if constexpr (std::is_integral_v<A> && std::is_integral_v<B>) {
    using T = std::conditional_t<(sizeof(A) < sizeof(long long)), long long, A>;
    T base = static_cast<T>(a);
    if (b < 0) {
      if (base == 1) return static_cast<T>(1);
      if (base == -1) return static_cast<T>((-b) % 2 == 0 ? 1 : -1);
      const bool negative = base < 0 && (-b) % 2 != 0;
      return static_cast<T>(negative ? -1 : 0);
    }
    T result = 1;
    for (auto e = b; e > 0; e /= 2) {
      if (e % 2 != 0) result *= base;
      if (e > 1) base *= base;
    }
    return result;
  } else {
    using T = std::common_type_t<A, B, double>;
    return std::pow(static_cast<T>(a), static_cast<T>(b));
  }
}

template <class A>
static inline A tlab_max(A a) { return a; }
template <class A, class B, class... R>
static inline auto tlab_max(A a, B b, R... rest) {
  using T = std::common_type_t<A, B>;
  const T x = static_cast<T>(a), y = static_cast<T>(b);
  return tlab_max(x < y ? y : x, rest...);
}

template <class A>
static inline A tlab_min(A a) { return a; }
template <class A, class B, class... R>
static inline auto tlab_min(A a, B b, R... rest) {
  using T = std::common_type_t<A, B>;
  const T x = static_cast<T>(a), y = static_cast<T>(b);
  return tlab_min(y < x ? y : x, rest...);
}

template <class A>
static inline A tlab_abs(A a) { return a < 0 ? static_cast<A>(-a) : a; }

// Fortran intrinsics of DaCe's Fortran frontend: IBSET, IBCLR, BTEST, ISHFT.
template <class A, class B>
static inline A tlab_bitwise_set(A a, B bit) { return static_cast<A>(a | (static_cast<A>(1) << bit)); }
template <class A, class B>
static inline A tlab_bitwise_clear(A a, B bit) { return static_cast<A>(a & ~(static_cast<A>(1) << bit)); }
template <class A, class B>
static inline bool tlab_bitwise_test(A a, B bit) { return ((a >> bit) & 1) != 0; }
template <class A, class B>
static inline A tlab_bitwise_shift(A a, B by) { return by >= 0 ? static_cast<A>(a << by) : static_cast<A>(a >> (-by)); }
#endif
`;
// electron/engine/sdfg/context.ts
/** Shared state of one normalisation run: where errors point, which warnings were given, what was counted. */
/** A file full of the same oddity should not produce a megabyte of warnings. */
const MAX_WARNINGS = 500;
/** Enough `$`-containing samples to decide the grammar; more would only cost memory. */
const MAX_GRAMMAR_SAMPLES = 16;
var ParseContext = class {
	file;
	warnings = [];
	/** Symbolic strings that contain `$` (candidates for the typed grammar, sdfg-format.md §10.3). */
	dollarSamples = [];
	counts = {
		states: 0,
		nodes: 0,
		edges: 0,
		transients: 0
	};
	/** Format markers seen while walking, for the generation guess. */
	sawListConnectors = false;
	sawControlFlowBlocks = false;
	warnedKeys = /* @__PURE__ */ new Set();
	suppressedWarnings = 0;
	constructor(file) {
		this.file = file;
	}
	fail(jsonPath, message) {
		throw new TlabError("input", message, {
			file: this.file,
			jsonPath
		});
	}
	warn(jsonPath, message) {
		if (this.warnings.length < MAX_WARNINGS) this.warnings.push({
			jsonPath,
			message
		});
		else this.suppressedWarnings++;
	}
	/** Warns once per `key` (e.g. one warning per unknown enum value, at its first occurrence). */
	warnOnce(key, jsonPath, message) {
		if (this.warnedKeys.has(key)) return;
		this.warnedKeys.add(key);
		this.warn(jsonPath, message);
	}
	noteSymbolic(expr) {
		if (this.dollarSamples.length < MAX_GRAMMAR_SAMPLES && expr.includes("$")) this.dollarSamples.push(expr);
	}
	finishWarnings() {
		if (this.suppressedWarnings > 0) {
			this.warnings.push({
				jsonPath: "$",
				message: `${this.suppressedWarnings} more warnings were not recorded`
			});
			this.suppressedWarnings = 0;
		}
		return this.warnings;
	}
};
// electron/engine/sdfg/dtype.ts
/** numpy byte sizes; `bool_` is the pre-1.0 spelling of `bool`. */
const SCALAR_BYTES = /* @__PURE__ */ new Map([
	["bool", 1],
	["bool_", 1],
	["int8", 1],
	["int16", 2],
	["int32", 4],
	["int64", 8],
	["uint8", 1],
	["uint16", 2],
	["uint32", 4],
	["uint64", 8],
	["float16", 2],
	["bfloat16", 2],
	["float8_e4m3fn", 1],
	["float8_e5m2", 1],
	["float32", 4],
	["float64", 8],
	["complex64", 8],
	["complex128", 16],
	["uintp", 8]
]);
/** Descriptors without a `dtype` key are int32 (omitted default, §2.2); shared because it is immutable. */
const INT32 = Object.freeze({
	kind: "scalar",
	name: "int32",
	bytes: 4
});
const scalarCache = /* @__PURE__ */ new Map();
function scalar(name) {
	const cached = scalarCache.get(name);
	if (cached) return cached;
	const bytes = SCALAR_BYTES.get(name);
	if (bytes === void 0) return null;
	const dtype = Object.freeze({
		kind: "scalar",
		name: name === "bool_" ? "bool" : name,
		bytes
	});
	scalarCache.set(name, dtype);
	return dtype;
}
/** Composite dtypes can nest (pointer to struct of vectors…); real files stay below 5 levels. */
const MAX_DTYPE_DEPTH = 64;
/**
* Reads a dtype value. `null` means "void / infer later" and is returned as null; callers decide what null
* means for them (connectors keep it, descriptors fall back to int32).
*/
function readDType(raw, path, ctx, depth = 0) {
	if (raw === null || raw === void 0) return null;
	if (depth > MAX_DTYPE_DEPTH) ctx.fail(path, `data type nested deeper than ${MAX_DTYPE_DEPTH} levels`);
	if (typeof raw === "string") {
		const known = scalar(raw);
		if (known) return known;
		const lastDot = raw.lastIndexOf(".");
		if (lastDot >= 0) {
			const short = scalar(raw.slice(lastDot + 1));
			if (short) return short;
		}
		if (raw === "pyobject" || raw === "string") return {
			kind: "opaque",
			ctype: raw === "string" ? "char *" : "PyObject *",
			bytes: null
		};
		ctx.warnOnce(`dtype:${raw}`, path, `unknown data type "${raw}" (kept; its size is unknown)`);
		return {
			kind: "unknown",
			raw,
			bytes: null
		};
	}
	if (!isPlainObject(raw)) ctx.fail(path, `expected a data type (a string or an object with "type"), found ${describeValue(raw)}`);
	const type = raw["type"];
	switch (type) {
		case "pointer": return {
			kind: "pointer",
			base: readDType(raw["dtype"], `${path}.dtype`, ctx, depth + 1),
			bytes: 8
		};
		case "string": return {
			kind: "pointer",
			base: scalar("int8"),
			bytes: 8
		};
		case "vector": {
			const base = readDType(raw["dtype"], `${path}.dtype`, ctx, depth + 1) ?? INT32;
			const elementsRaw = raw["elements"];
			const elements = typeof elementsRaw === "number" ? String(elementsRaw) : typeof elementsRaw === "string" ? elementsRaw : "1";
			const count = /^\d+$/.test(elements) ? Number(elements) : null;
			return {
				kind: "vector",
				base,
				elements,
				bytes: count !== null && base.bytes !== null ? count * base.bytes : null
			};
		}
		case "struct": {
			const name = typeof raw["name"] === "string" ? raw["name"] : "";
			const fields = readStructFields(raw["data"], `${path}.data`, ctx, depth);
			const declared = raw["bytes"];
			let bytes = typeof declared === "number" && Number.isFinite(declared) ? declared : null;
			if (bytes === null) {
				let sum = 0;
				for (const [, field] of fields) {
					if (field.bytes === null) {
						sum = NaN;
						break;
					}
					sum += field.bytes;
				}
				bytes = Number.isNaN(sum) ? null : sum;
			}
			return {
				kind: "struct",
				name,
				fields,
				bytes
			};
		}
		case "opaque": return {
			kind: "opaque",
			ctype: typeof raw["ctype"] === "string" ? raw["ctype"] : "",
			bytes: null
		};
		case "pyobject": return {
			kind: "opaque",
			ctype: "PyObject *",
			bytes: null
		};
		case "callback": return {
			kind: "opaque",
			ctype: "callback",
			bytes: null
		};
		default:
			ctx.warnOnce(`dtype-object:${String(type)}`, path, `unknown data type object of type ${describeValue(type)} (kept; its size is unknown)`);
			return {
				kind: "unknown",
				raw,
				bytes: null
			};
	}
}
function readStructFields(raw, path, ctx, depth) {
	const fields = [];
	if (raw === null || raw === void 0) return fields;
	if (Array.isArray(raw)) {
		for (let i = 0; i < raw.length; i++) {
			const pair = raw[i];
			if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string") ctx.fail(`${path}[${i}]`, "expected a [field name, data type] pair");
			fields.push([pair[0], readDType(pair[1], `${path}[${i}][1]`, ctx, depth + 1) ?? INT32]);
		}
		return fields;
	}
	if (isPlainObject(raw)) {
		for (const key of Object.keys(raw)) fields.push([key, readDType(raw[key], keyPath(path, key), ctx, depth + 1) ?? INT32]);
		return fields;
	}
	ctx.fail(path, `expected a list of struct fields, found ${describeValue(raw)}`);
}
/** A short, safe description of a JSON value for error messages (never prints large content). */
function describeValue(value) {
	if (value === null) return "null";
	if (Array.isArray(value)) return "a list";
	switch (typeof value) {
		case "string": return value.length > 40 ? `the string "${value.slice(0, 40)}…"` : `the string "${value}"`;
		case "number": return `the number ${value}`;
		case "boolean": return `the boolean ${value}`;
		case "object": return "an object";
		default: return typeof value;
	}
}
// electron/engine/sdfg/fields.ts
/** Reads a symbolic expression (a string; integers and `{main, approx}` SymExpr objects are normalised). */
function readSym(raw, path, ctx) {
	if (typeof raw === "string") {
		ctx.noteSymbolic(raw);
		return raw;
	}
	if (typeof raw === "number" && Number.isFinite(raw)) return String(raw);
	if (isPlainObject(raw) && "main" in raw) {
		const main = readSym(raw["main"], `${path}.main`, ctx);
		return `SymExpr(${main}, ${"approx" in raw && raw["approx"] !== null ? readSym(raw["approx"], `${path}.approx`, ctx) : main})`;
	}
	ctx.fail(path, `expected a symbolic expression (a string or an integer), found ${describeValue(raw)}`);
}
function readSymOr(raw, fallback, path, ctx) {
	return raw === void 0 || raw === null ? fallback : readSym(raw, path, ctx);
}
/** A list of symbolic expressions, or null when absent. */
function readSymList(raw, path, ctx, what) {
	if (raw === void 0 || raw === null) return null;
	if (!Array.isArray(raw)) ctx.fail(path, `${what} must be a list of expressions, found ${describeValue(raw)}`);
	const out = new Array(raw.length);
	for (let i = 0; i < raw.length; i++) out[i] = readSym(raw[i], `${path}[${i}]`, ctx);
	return out;
}
/** Subset unions can nest in theory; real files never do. */
const MAX_SUBSET_DEPTH = 32;
/** Reads a Range / Indices / SubsetUnion (or the rare string form); null = the whole container. */
function readSubset(raw, path, ctx, depth = 0) {
	if (raw === void 0 || raw === null) return null;
	if (typeof raw === "string") return parseSubsetString(raw, path, ctx);
	if (!isPlainObject(raw)) ctx.fail(path, `expected a subset (an object with "type": "Range" or "Indices"), found ${describeValue(raw)}`);
	const type = raw["type"];
	if (type === "Range" || type === void 0 && "ranges" in raw) return {
		kind: "range",
		dims: readRangeDims(raw, path, ctx)
	};
	if (type === "Indices" || type === void 0 && "indices" in raw) return {
		kind: "indices",
		indices: readSymList(raw["indices"], `${path}.indices`, ctx, "Indices \"indices\"") ?? []
	};
	if (type === "SubsetUnion") {
		if (depth >= MAX_SUBSET_DEPTH) ctx.fail(path, `subset unions nested deeper than ${MAX_SUBSET_DEPTH} levels`);
		const list = raw["subset_list"];
		if (!Array.isArray(list)) ctx.fail(`${path}.subset_list`, `SubsetUnion needs a "subset_list" list, found ${describeValue(list)}`);
		const subsets = [];
		for (let i = 0; i < list.length; i++) {
			const subset = readSubset(list[i], `${path}.subset_list[${i}]`, ctx, depth + 1);
			if (subset) subsets.push(subset);
		}
		return {
			kind: "union",
			subsets
		};
	}
	ctx.warnOnce(`subset:${String(type)}`, path, `unknown subset type ${describeValue(type)}: treated as the whole container`);
	return null;
}
/** The `ranges` of a Range object: inclusive `end`; `step`/`tile` default to 1. */
function readRangeDims(raw, path, ctx) {
	const ranges = raw["ranges"];
	if (!Array.isArray(ranges)) ctx.fail(`${path}.ranges`, `a Range needs a "ranges" list, found ${describeValue(ranges)}`);
	const dims = new Array(ranges.length);
	for (let i = 0; i < ranges.length; i++) {
		const dim = ranges[i];
		const dimPath = `${path}.ranges[${i}]`;
		if (Array.isArray(dim)) {
			if (dim.length < 2) ctx.fail(dimPath, "a range dimension needs at least a start and an end");
			dims[i] = {
				start: readSym(dim[0], `${dimPath}[0]`, ctx),
				end: readSym(dim[1], `${dimPath}[1]`, ctx),
				step: readSymOr(dim[2], "1", `${dimPath}[2]`, ctx),
				tile: readSymOr(dim[3], "1", `${dimPath}[3]`, ctx)
			};
			continue;
		}
		if (!isPlainObject(dim)) ctx.fail(dimPath, `expected a range dimension {start, end, step, tile}, found ${describeValue(dim)}`);
		if (dim["start"] === void 0 || dim["end"] === void 0) ctx.fail(dimPath, "a range dimension needs \"start\" and \"end\"");
		dims[i] = {
			start: readSym(dim["start"], `${dimPath}.start`, ctx),
			end: readSym(dim["end"], `${dimPath}.end`, ctx),
			step: readSymOr(dim["step"], "1", `${dimPath}.step`, ctx),
			tile: readSymOr(dim["tile"], "1", `${dimPath}.tile`, ctx)
		};
	}
	return dims;
}
/** Ranges in Python slice notation (`"0:N, i"`, exclusive end) as accepted by DaCe's property setter. */
function parseSubsetString(text, path, ctx) {
	ctx.noteSymbolic(text);
	const dims = [];
	for (const part of splitTopLevel(text, ",")) {
		const pieces = splitTopLevel(part, ":").map((p) => p.trim());
		if (pieces.length === 0 || pieces.length > 3 || pieces[0] === "") ctx.fail(path, `cannot read the subset string "${text}"`);
		if (pieces.length === 1) dims.push({
			start: pieces[0],
			end: pieces[0],
			step: "1",
			tile: "1"
		});
		else dims.push({
			start: pieces[0],
			end: `(${pieces[1]}) - 1`,
			step: pieces[2] || "1",
			tile: "1"
		});
	}
	return {
		kind: "range",
		dims
	};
}
function splitTopLevel(text, separator) {
	const parts = [];
	let depth = 0;
	let start = 0;
	for (let i = 0; i < text.length; i++) {
		const c = text[i];
		if (c === "(" || c === "[") depth++;
		else if (c === ")" || c === "]") depth--;
		else if (c === separator && depth === 0) {
			parts.push(text.slice(start, i));
			start = i + 1;
		}
	}
	const last = text.slice(start);
	if (last.trim() !== "" || parts.length > 0) parts.push(last);
	return parts;
}
const LANGUAGES = [
	"Python",
	"CPP",
	"OpenCL",
	"SystemVerilog",
	"MLIR"
];
/** Reads a CodeBlock (`{string_data, language}`); a bare string is Python; `NoCode` and null mean none. */
function readCode(raw, path, ctx) {
	if (raw === void 0 || raw === null) return null;
	if (typeof raw === "string") return {
		code: raw,
		language: "Python"
	};
	if (!isPlainObject(raw)) ctx.fail(path, `expected a code block {string_data, language}, found ${describeValue(raw)}`);
	const data = raw["string_data"] ?? raw["code"];
	if (data !== void 0 && data !== null && typeof data !== "string") ctx.fail(`${path}.string_data`, `code must be a string, found ${describeValue(data)}`);
	const language = readLanguage(raw["language"]);
	if (language === "NoCode") return null;
	return {
		code: data ?? "",
		language
	};
}
function readLanguage(raw) {
	if (raw === void 0 || raw === null) return "Python";
	const text = isPlainObject(raw) && typeof raw["type"] === "string" ? raw["type"] : String(raw);
	if (LANGUAGES.includes(text) || text === "NoCode") return text;
	for (const name of LANGUAGES) if (text.endsWith(name)) return name;
	if (text.endsWith("NoCode")) return "NoCode";
	return text;
}
/** Code text of a CodeBlock field, or null. */
function readCodeText(raw, path, ctx) {
	return readCode(raw, path, ctx)?.code ?? null;
}
const STORAGE_TYPES = /* @__PURE__ */ new Set([
	"Default",
	"Register",
	"CPU_Pinned",
	"CPU_Heap",
	"CPU_ThreadLocal",
	"GPU_Global",
	"GPU_Shared",
	"SVE_Register",
	"Snitch_TCDM",
	"Snitch_L2",
	"Snitch_SSR",
	"FPGA_Global",
	"FPGA_Local",
	"FPGA_Registers",
	"FPGA_ShiftRegister",
	"Immaterial",
	"CPU_Stack",
	"GPU_Stack"
]);
const SCHEDULE_TYPES = /* @__PURE__ */ new Set([
	"Default",
	"Sequential",
	"MPI",
	"CPU_Multicore",
	"CPU_Persistent",
	"SVE_Map",
	"GPU_Device",
	"GPU_ThreadBlock",
	"GPU_ThreadBlock_Dynamic",
	"GPU_Persistent",
	"Snitch",
	"Snitch_Multicore",
	"Unrolled",
	"GPU_Default",
	"FPGA_Device",
	"FPGA_Multi_Pumped"
]);
const LIFETIMES = /* @__PURE__ */ new Set([
	"Scope",
	"State",
	"SDFG",
	"Global",
	"Persistent",
	"External"
]);
/**
* Reads an enumeration value. The value set is open (branch-only members exist): unknown names are kept
* verbatim with one warning per name; the 2.0 object form `{"type": "StorageType.NAME", …}` is accepted.
*/
function readEnum(raw, fallback, known, what, path, ctx) {
	if (raw === void 0 || raw === null) return fallback;
	let name;
	if (typeof raw === "string") name = raw;
	else if (isPlainObject(raw) && typeof raw["type"] === "string") name = raw["type"];
	else {
		ctx.warn(path, `${what} should be a name, found ${describeValue(raw)}; using ${fallback}`);
		return fallback;
	}
	if (known.has(name)) return name;
	const dot = name.lastIndexOf(".");
	if (dot >= 0 && known.has(name.slice(dot + 1))) return name.slice(dot + 1);
	ctx.warnOnce(`enum:${what}:${name}`, path, `unknown ${what} "${name}" (kept as is)`);
	return name;
}
function readBool(raw, fallback) {
	return typeof raw === "boolean" ? raw : fallback;
}
function readInt(raw, fallback) {
	if (typeof raw === "number" && Number.isFinite(raw)) return raw;
	if (typeof raw === "string" && /^-?\d+$/.test(raw)) return Number(raw);
	return fallback;
}
function readString(raw, fallback) {
	return typeof raw === "string" ? raw : fallback;
}
/**
* Reads an id that refers to one of `count` elements (node ids and block indices are written as strings
* holding integers). Dangling references are errors: the graph cannot be used with them.
*/
function readIndex(raw, count, path, ctx, what) {
	let value;
	if (typeof raw === "number") value = raw;
	else if (typeof raw === "string" && /^\s*-?\d+\s*$/.test(raw)) value = Number(raw);
	else ctx.fail(path, `${what} must be an integer id, found ${describeValue(raw)}`);
	if (!Number.isInteger(value) || value < 0 || value >= count) ctx.fail(path, `${what} ${describeId(raw)} does not exist (${count === 0 ? "there are none" : `valid ids are 0-${count - 1}`})`);
	return value;
}
function describeId(raw) {
	return typeof raw === "string" ? `"${raw}"` : String(raw);
}
/** An object-valued field; absent or null → null; anything else is a type error. */
function objectField(owner, key, ownerPath, ctx) {
	const value = owner[key];
	if (value === void 0 || value === null) return null;
	if (!isPlainObject(value)) ctx.fail(`${ownerPath}.${key}`, `"${key}" must be an object, found ${describeValue(value)}`);
	return value;
}
const EMPTY_LIST = Object.freeze([]);
/** A list-valued field; absent or null → empty; anything else is a type error. */
function listField(owner, key, ownerPath, ctx) {
	const value = owner[key];
	if (value === void 0 || value === null) return EMPTY_LIST;
	if (!Array.isArray(value)) ctx.fail(`${ownerPath}.${key}`, `"${key}" must be a list, found ${describeValue(value)}`);
	return value;
}
// electron/engine/sdfg/dataflow.ts
/** G0 files wrote library nodes with their class name as node type and no classpath (§8.6). */
const LEGACY_LIBRARY_TYPES = /* @__PURE__ */ new Set([
	"Reduce",
	"MatMul",
	"Dot",
	"Gemm",
	"Gemv",
	"Ger",
	"Axpy",
	"Einsum",
	"Transpose",
	"TensorTranspose",
	"CSRMM",
	"CSRMV",
	"FFT",
	"IFFT",
	"Getrf",
	"Getrs",
	"Getri",
	"Potrf",
	"Cholesky",
	"Solve",
	"Inv"
]);
const EMPTY_ATTRIBUTES = Object.freeze({});
function readState(raw, path, id, sdfg, ctx, pending) {
	const nodesRaw = listField(raw, "nodes", path, ctx);
	const edgesRaw = listField(raw, "edges", path, ctx);
	const count = nodesRaw.length;
	const nodes = new Array(count);
	for (let i = 0; i < count; i++) nodes[i] = readNode(nodesRaw[i], `${path}.nodes[${i}]`, i, count, sdfg, ctx, pending);
	pairScopeNodes(nodes);
	const edges = new Array(edgesRaw.length);
	for (let i = 0; i < edgesRaw.length; i++) edges[i] = readMemletEdge(edgesRaw[i], `${path}.edges[${i}]`, i, count, ctx);
	ctx.counts.states++;
	ctx.counts.nodes += count;
	ctx.counts.edges += edges.length;
	return {
		kind: "state",
		id,
		label: readString(raw["label"], ""),
		jsonPath: path,
		nodes,
		edges
	};
}
function readNode(raw, path, index, count, sdfg, ctx, pending) {
	if (!isPlainObject(raw)) ctx.fail(path, `expected a dataflow node object, found ${describeValue(raw)}`);
	const type = raw["type"];
	if (type === void 0) ctx.fail(path, "the node has no \"type\" (AccessNode, Tasklet, MapEntry, …)");
	if (typeof type !== "string") ctx.fail(`${path}.type`, `node "type" must be a string, found ${describeValue(type)}`);
	const attrsRaw = raw["attributes"];
	if (attrsRaw !== void 0 && attrsRaw !== null && !isPlainObject(attrsRaw)) ctx.fail(`${path}.attributes`, `"attributes" must be an object, found ${describeValue(attrsRaw)}`);
	const attrs = attrsRaw ?? EMPTY_ATTRIBUTES;
	const attrsPath = `${path}.attributes`;
	const storedId = raw["id"];
	if (storedId !== void 0 && storedId !== null && Number(storedId) !== index) ctx.warn(`${path}.id`, `node id ${String(storedId)} differs from its position ${index} in the state; edges refer to positions`);
	const scopeRaw = raw["scope_entry"];
	const scopeEntry = scopeRaw === void 0 || scopeRaw === null ? null : readIndex(scopeRaw, count, `${path}.scope_entry`, ctx, "scope_entry");
	const base = {
		id: index,
		label: readString(raw["label"], readString(attrs["label"], "")),
		scopeEntry,
		inConnectors: readConnectors(attrs["in_connectors"], `${attrsPath}.in_connectors`, ctx),
		outConnectors: readConnectors(attrs["out_connectors"], `${attrsPath}.out_connectors`, ctx),
		jsonPath: path
	};
	switch (type) {
		case "AccessNode": {
			const data = attrs["data"] ?? raw["data"];
			if (typeof data !== "string") ctx.fail(`${attrsPath}.data`, `an AccessNode needs the name of its data container, found ${describeValue(data)}`);
			const dot = data.indexOf(".");
			const container = dot < 0 ? data : data.slice(0, dot);
			if (!sdfg.arrays.has(container)) ctx.warn(`${attrsPath}.data`, `AccessNode refers to "${data}", which is not a data descriptor of SDFG "${sdfg.name}"`);
			return {
				...base,
				kind: "access",
				data,
				setzero: readBool(attrs["setzero"], false)
			};
		}
		case "Tasklet":
		case "RTLTasklet": return {
			...base,
			kind: "tasklet",
			code: readCode(attrs["code"], `${attrsPath}.code`, ctx) ?? {
				code: "",
				language: "Python"
			},
			codeGlobal: readCode(attrs["code_global"], `${attrsPath}.code_global`, ctx),
			codeInit: readCode(attrs["code_init"], `${attrsPath}.code_init`, ctx),
			codeExit: readCode(attrs["code_exit"], `${attrsPath}.code_exit`, ctx),
			sideEffects: typeof attrs["side_effects"] === "boolean" ? attrs["side_effects"] : null
		};
		case "MapEntry": return {
			...base,
			kind: "map_entry",
			map: readMap(attrs, base.label, attrsPath, ctx),
			exitId: readScopeExit(raw, path, count, ctx)
		};
		case "MapExit": return {
			...base,
			kind: "map_exit",
			entryId: scopeEntry
		};
		case "ConsumeEntry": return {
			...base,
			kind: "consume_entry",
			peIndex: readString(attrs["pe_index"], ""),
			numPes: readSymOr(attrs["num_pes"], "1", `${attrsPath}.num_pes`, ctx),
			schedule: readEnum(attrs["schedule"], "Default", SCHEDULE_TYPES, "schedule type", `${attrsPath}.schedule`, ctx),
			exitId: readScopeExit(raw, path, count, ctx)
		};
		case "ConsumeExit": return {
			...base,
			kind: "consume_exit",
			entryId: scopeEntry
		};
		case "NestedSDFG": return readNestedSdfgNode(base, attrs, attrsPath, ctx, pending);
		case "LibraryNode": {
			const classpath = typeof raw["classpath"] === "string" ? raw["classpath"] : null;
			if (classpath === null) ctx.warn(path, "library node without \"classpath\": its class is unknown");
			return readLibraryNode(base, classpath ?? "LibraryNode", attrs, attrsPath, ctx);
		}
		default:
			if (LEGACY_LIBRARY_TYPES.has(type)) return readLibraryNode(base, type, attrs, attrsPath, ctx);
			ctx.warnOnce(`node:${type}`, path, `unknown node type "${type}" (kept as an opaque node with its connectors)`);
			return {
				...base,
				kind: "unknown",
				type,
				attributes: attrs === EMPTY_ATTRIBUTES ? {} : attrs
			};
	}
}
function readNestedSdfgNode(base, attrs, attrsPath, ctx, pending) {
	const mapping = {};
	const mappingRaw = attrs["symbol_mapping"];
	if (mappingRaw !== void 0 && mappingRaw !== null) {
		if (!isPlainObject(mappingRaw)) ctx.fail(`${attrsPath}.symbol_mapping`, `"symbol_mapping" must be an object, found ${describeValue(mappingRaw)}`);
		for (const key of Object.keys(mappingRaw)) setOwn(mapping, key, readSym(mappingRaw[key], keyPath(`${attrsPath}.symbol_mapping`, key), ctx));
	}
	const extPath = typeof attrs["ext_sdfg_path"] === "string" && attrs["ext_sdfg_path"] !== "" ? attrs["ext_sdfg_path"] : null;
	const node = {
		...base,
		kind: "nested_sdfg",
		sdfg: null,
		extSdfgPath: extPath,
		symbolMapping: mapping,
		schedule: readEnum(attrs["schedule"], "Default", SCHEDULE_TYPES, "schedule type", `${attrsPath}.schedule`, ctx)
	};
	const inner = attrs["sdfg"];
	if (inner === void 0 || inner === null) {
		if (extPath === null) ctx.warn(base.jsonPath, "nested SDFG node has neither an embedded \"sdfg\" nor an \"ext_sdfg_path\"");
	} else if (isPlainObject(inner) || typeof inner === "string") pending.push({
		raw: inner,
		path: `${attrsPath}.sdfg`,
		node
	});
	else ctx.fail(`${attrsPath}.sdfg`, `a nested SDFG must be an SDFG object or its JSON text, found ${describeValue(inner)}`);
	return node;
}
function readLibraryNode(base, classpath, attrs, attrsPath, ctx) {
	const implementation = attrs["implementation"];
	return {
		...base,
		kind: "library",
		classpath,
		className: classpath.slice(classpath.lastIndexOf(".") + 1),
		implementation: typeof implementation === "string" ? implementation : null,
		schedule: readEnum(attrs["schedule"], "Default", SCHEDULE_TYPES, "schedule type", `${attrsPath}.schedule`, ctx),
		attributes: attrs === EMPTY_ATTRIBUTES ? {} : attrs
	};
}
function readMap(attrs, nodeLabel, attrsPath, ctx) {
	const paramsRaw = attrs["params"];
	let params = [];
	if (paramsRaw !== void 0 && paramsRaw !== null) {
		if (!Array.isArray(paramsRaw) || paramsRaw.some((p) => typeof p !== "string")) ctx.fail(`${attrsPath}.params`, `map "params" must be a list of names, found ${describeValue(paramsRaw)}`);
		params = paramsRaw;
	}
	let range = [];
	const rangeRaw = attrs["range"];
	if (isPlainObject(rangeRaw) && (rangeRaw["type"] === "Range" || "ranges" in rangeRaw)) range = readRangeDims(rangeRaw, `${attrsPath}.range`, ctx);
	else if (rangeRaw !== void 0 && rangeRaw !== null) {
		const subset = readSubset(rangeRaw, `${attrsPath}.range`, ctx);
		if (subset?.kind === "range") range = subset.dims;
		else if (subset?.kind === "indices") range = subset.indices.map((i) => ({
			start: i,
			end: i,
			step: "1",
			tile: "1"
		}));
	}
	if (range.length !== params.length) ctx.warn(`${attrsPath}.range`, `the map has ${params.length} parameters but ${range.length} range dimensions`);
	const blockSize = attrs["gpu_block_size"];
	const labelRaw = attrs["label"];
	const bracket = nodeLabel.indexOf("[");
	return {
		label: typeof labelRaw === "string" ? labelRaw : bracket >= 0 ? nodeLabel.slice(0, bracket) : nodeLabel,
		params,
		range,
		schedule: readEnum(attrs["schedule"], "Default", SCHEDULE_TYPES, "schedule type", `${attrsPath}.schedule`, ctx),
		unroll: readBool(attrs["unroll"], false),
		collapse: readInt(attrs["collapse"], 1),
		ompNumThreads: readInt(attrs["omp_num_threads"], 0),
		gpuBlockSize: Array.isArray(blockSize) ? blockSize.map((v) => readInt(v, 0)) : null
	};
}
/** The exit id an entry node names: `scope_exit` (string id), or the G0 `scope_exits` list. */
function readScopeExit(raw, path, count, ctx) {
	const exit = raw["scope_exit"];
	if (exit !== void 0 && exit !== null) return readIndex(exit, count, `${path}.scope_exit`, ctx, "scope_exit");
	const exits = raw["scope_exits"];
	if (Array.isArray(exits) && exits.length > 0 && exits[0] !== null) return readIndex(exits[0], count, `${path}.scope_exits[0]`, ctx, "scope_exits entry");
	return null;
}
/** Completes entry↔exit links from whichever side the file recorded (§12.7: exits find entries via scope_entry). */
function pairScopeNodes(nodes) {
	for (const node of nodes) if ((node.kind === "map_exit" || node.kind === "consume_exit") && node.entryId !== null) {
		const entry = nodes[node.entryId];
		if (entry && (entry.kind === "map_entry" || entry.kind === "consume_entry") && entry.exitId === null) entry.exitId = node.id;
	}
	for (const node of nodes) if ((node.kind === "map_entry" || node.kind === "consume_entry") && node.exitId !== null) {
		const exit = nodes[node.exitId];
		if (exit && (exit.kind === "map_exit" || exit.kind === "consume_exit") && exit.entryId === null) exit.entryId = node.id;
	}
}
/** Connector dicts (name → dtype or null); G0 wrote plain name lists. */
function readConnectors(raw, path, ctx) {
	const connectors = {};
	if (raw === void 0 || raw === null) return connectors;
	if (Array.isArray(raw)) {
		ctx.sawListConnectors = true;
		for (let i = 0; i < raw.length; i++) {
			const name = raw[i];
			if (typeof name !== "string") ctx.fail(`${path}[${i}]`, `a connector name must be a string, found ${describeValue(name)}`);
			setOwn(connectors, name, null);
		}
		return connectors;
	}
	if (!isPlainObject(raw)) ctx.fail(path, `connectors must be an object (name → type) or a list of names, found ${describeValue(raw)}`);
	for (const name of Object.keys(raw)) {
		const dtype = raw[name];
		setOwn(connectors, name, dtype === null ? null : readDType(dtype, keyPath(path, name), ctx));
	}
	return connectors;
}
/** Defines an own property even for names such as `__proto__` (connector names come from user programs). */
function setOwn(target, key, value) {
	if (key === "__proto__") Object.defineProperty(target, key, {
		value,
		enumerable: true,
		writable: true,
		configurable: true
	});
	else target[key] = value;
}
function readMemletEdge(raw, path, index, nodeCount, ctx) {
	if (!isPlainObject(raw)) ctx.fail(path, `expected a memlet edge object, found ${describeValue(raw)}`);
	const src = readIndex(raw["src"], nodeCount, `${path}.src`, ctx, "memlet edge source node");
	const dst = readIndex(raw["dst"], nodeCount, `${path}.dst`, ctx, "memlet edge destination node");
	const attrs = raw["attributes"];
	if (attrs !== void 0 && attrs !== null && !isPlainObject(attrs)) ctx.fail(`${path}.attributes`, `"attributes" must be an object, found ${describeValue(attrs)}`);
	const memletRaw = attrs ? attrs["data"] : void 0;
	return {
		index,
		src,
		dst,
		srcConnector: typeof raw["src_connector"] === "string" ? raw["src_connector"] : null,
		dstConnector: typeof raw["dst_connector"] === "string" ? raw["dst_connector"] : null,
		memlet: readMemlet(memletRaw, `${path}.attributes.data`, ctx),
		jsonPath: path
	};
}
function readMemlet(raw, path, ctx) {
	if (raw === void 0 || raw === null) return emptyMemlet();
	if (!isPlainObject(raw)) ctx.fail(path, `expected a Memlet object, found ${describeValue(raw)}`);
	const inner = raw["attributes"];
	const attrs = isPlainObject(inner) ? inner : raw;
	const attrsPath = isPlainObject(inner) ? `${path}.attributes` : path;
	const data = attrs["data"];
	if (data !== void 0 && data !== null && typeof data !== "string") ctx.fail(`${attrsPath}.data`, `memlet "data" must be a container name or null, found ${describeValue(data)}`);
	let volume;
	let dynamic = readBool(attrs["dynamic"], false);
	const volumeRaw = attrs["volume"];
	if (volumeRaw !== void 0 && volumeRaw !== null) volume = readSym(volumeRaw, `${attrsPath}.volume`, ctx);
	else {
		const accesses = attrs["num_accesses"];
		if (accesses === -1 || accesses === "-1") {
			volume = "0";
			dynamic = true;
		} else volume = readSymOr(accesses, "0", `${attrsPath}.num_accesses`, ctx);
	}
	const wcr = attrs["wcr"];
	return {
		data: typeof data === "string" ? data : null,
		subset: readSubset(attrs["subset"], `${attrsPath}.subset`, ctx),
		otherSubset: readSubset(attrs["other_subset"], `${attrsPath}.other_subset`, ctx),
		wcr: typeof wcr === "string" ? wcr : isPlainObject(wcr) ? readCode(wcr, `${attrsPath}.wcr`, ctx)?.code ?? null : null,
		wcrNonatomic: readBool(attrs["wcr_nonatomic"], false),
		volume,
		dynamic,
		isDataSrc: typeof attrs["is_data_src"] === "boolean" ? attrs["is_data_src"] : null,
		allowOob: readBool(attrs["allow_oob"], false)
	};
}
function emptyMemlet() {
	return {
		data: null,
		subset: null,
		otherSubset: null,
		wcr: null,
		wcrNonatomic: false,
		volume: "0",
		dynamic: false,
		isDataSrc: null,
		allowOob: false
	};
}
// electron/engine/sdfg/descriptors.ts
/** Old class names → current ones (§5.2). */
const RENAMED_TYPES = /* @__PURE__ */ new Map([
	["View", "ArrayView"],
	["Reference", "ArrayReference"],
	["StructArray", "ContainerArray"]
]);
const ARRAY_LIKE_TYPES = /* @__PURE__ */ new Set([
	"Array",
	"ArrayView",
	"ArrayReference",
	"ContainerArray",
	"ContainerView",
	"ContainerArrayReference",
	"ParameterArray"
]);
const STRUCTURE_TYPES = /* @__PURE__ */ new Set([
	"Structure",
	"StructureView",
	"StructureReference",
	"Tensor"
]);
const KNOWN_TYPES = /* @__PURE__ */ new Set([
	...ARRAY_LIKE_TYPES,
	...STRUCTURE_TYPES,
	"Scalar",
	"Stream",
	"ProcessGrid",
	"SubArray",
	"RedistrArray"
]);
/** Structures nest members; real files stay within a handful of levels. */
const MAX_MEMBER_DEPTH = 64;
function readDescriptor(name, raw, path, ctx, options, depth = 0) {
	if (!isPlainObject(raw)) ctx.fail(path, `expected a data descriptor object, found ${describeValue(raw)}`);
	const rawType = raw["type"];
	if (typeof rawType !== "string") ctx.fail(path, `data descriptor "${name}" has no "type" (Array, Scalar, …)`);
	const type = RENAMED_TYPES.get(rawType) ?? rawType;
	const attrsRaw = raw["attributes"];
	if (attrsRaw !== void 0 && attrsRaw !== null && !isPlainObject(attrsRaw)) ctx.fail(`${path}.attributes`, `"attributes" must be an object, found ${describeValue(attrsRaw)}`);
	const attrs = attrsRaw ?? {};
	const attrsPath = `${path}.attributes`;
	if (!KNOWN_TYPES.has(type)) ctx.warnOnce(`descriptor:${type}`, path, `unknown data descriptor type "${type}" (kept; treated as ${"strides" in attrs ? "Array-like" : "opaque"})`);
	const arrayLike = ARRAY_LIKE_TYPES.has(type) || !KNOWN_TYPES.has(type) && "strides" in attrs;
	const dtypeRaw = attrs["dtype"];
	const dtype = dtypeRaw === void 0 ? INT32 : readDType(dtypeRaw, `${attrsPath}.dtype`, ctx) ?? {
		kind: "unknown",
		raw: null,
		bytes: null
	};
	let shape = readSymList(attrs["shape"], `${attrsPath}.shape`, ctx, "shape") ?? [];
	if (shape.length === 0 && type === "Scalar") shape = ["1"];
	const storedStrides = readSymList(attrs["strides"], `${attrsPath}.strides`, ctx, "strides");
	const strides = storedStrides && storedStrides.length === shape.length ? storedStrides : contiguousStrides(shape);
	if (storedStrides && storedStrides.length > 0 && storedStrides.length !== shape.length) ctx.warn(`${attrsPath}.strides`, `${storedStrides.length} strides for ${shape.length} dimensions: using C-contiguous strides`);
	const totalRaw = attrs["total_size"];
	const totalSize = totalRaw === void 0 || totalRaw === null || totalRaw === 0 || totalRaw === "0" ? product(shape) : readSym(totalRaw, `${attrsPath}.total_size`, ctx);
	const storedOffset = readSymList(attrs["offset"], `${attrsPath}.offset`, ctx, "offset");
	const offset = storedOffset && storedOffset.length > 0 ? storedOffset : shape.map(() => "0");
	const transient = readBool(attrs["transient"], false);
	if (transient && options.countTransients) ctx.counts.transients++;
	let members = null;
	if (STRUCTURE_TYPES.has(type) && attrs["members"] !== void 0 && attrs["members"] !== null) {
		if (depth >= MAX_MEMBER_DEPTH) ctx.fail(path, `structure members nested deeper than ${MAX_MEMBER_DEPTH} levels`);
		members = readMembers(attrs["members"], `${attrsPath}.members`, ctx, options, depth + 1);
	}
	return {
		name,
		type,
		arrayLike,
		dtype,
		shape,
		strides,
		totalSize,
		offset,
		transient,
		storage: readEnum(attrs["storage"], "Default", STORAGE_TYPES, "storage type", `${attrsPath}.storage`, ctx),
		lifetime: readEnum(attrs["lifetime"], "Scope", LIFETIMES, "allocation lifetime", `${attrsPath}.lifetime`, ctx),
		pool: readBool(attrs["pool"], false),
		mayAlias: readBool(attrs["may_alias"], false),
		alignment: readInt(attrs["alignment"], 0),
		startOffset: readInt(attrs["start_offset"], 0),
		bufferSize: type === "Stream" ? readSymOrDefault(attrs["buffer_size"], "0", `${attrsPath}.buffer_size`, ctx) : null,
		members,
		jsonPath: path
	};
}
function readSymOrDefault(raw, fallback, path, ctx) {
	return raw === void 0 || raw === null ? fallback : readSym(raw, path, ctx);
}
/** Members are `[name, descriptor]` pairs in order; an object keyed by name is accepted as well. */
function readMembers(raw, path, ctx, options, depth) {
	const members = [];
	if (Array.isArray(raw)) {
		for (let i = 0; i < raw.length; i++) {
			const pair = raw[i];
			if (!Array.isArray(pair) || pair.length !== 2 || typeof pair[0] !== "string") ctx.fail(`${path}[${i}]`, "expected a [member name, descriptor] pair");
			members.push(readDescriptor(pair[0], pair[1], `${path}[${i}][1]`, ctx, options, depth));
		}
		return members;
	}
	if (isPlainObject(raw)) {
		for (const key of Object.keys(raw)) members.push(readDescriptor(key, raw[key], keyPath(path, key), ctx, options, depth));
		return members;
	}
	ctx.fail(path, `"members" must be a list of [name, descriptor] pairs, found ${describeValue(raw)}`);
}
const SIMPLE_FACTOR = /^\$?[A-Za-z_][A-Za-z0-9_]*$/;
const INTEGER = /^\d+$/;
/** Product of symbolic factors as an expression both grammars accept; integer factors are folded. */
function product(factors) {
	let constant = 1n;
	const symbolic = [];
	for (const factor of factors) {
		const trimmed = factor.trim();
		if (INTEGER.test(trimmed)) constant *= BigInt(trimmed);
		else symbolic.push(SIMPLE_FACTOR.test(trimmed) ? trimmed : `(${trimmed})`);
	}
	if (constant === 0n) return "0";
	if (symbolic.length === 0) return constant.toString();
	if (constant !== 1n) symbolic.unshift(constant.toString());
	return symbolic.join("*");
}
/** C-contiguous strides in elements: the last dimension has stride 1. */
function contiguousStrides(shape) {
	const strides = new Array(shape.length);
	for (let i = 0; i < shape.length; i++) strides[i] = i === shape.length - 1 ? "1" : product(shape.slice(i + 1));
	return strides;
}
// electron/engine/sdfg/normalise.ts
/** Region types with a body graph (§6.4); unknown block types with `nodes` are treated the same way. */
const REGION_TYPES = /* @__PURE__ */ new Set([
	"ControlFlowRegion",
	"NamedRegion",
	"FunctionCallRegion",
	"UnstructuredControlFlow"
]);
const JUMP_KINDS = /* @__PURE__ */ new Map([
	["BreakBlock", "break"],
	["ContinueBlock", "continue"],
	["ReturnBlock", "return"]
]);
var Normaliser = class {
	ctx;
	sdfgs = [];
	nextCfgId = 0;
	tasks = [];
	constructor(ctx) {
		this.ctx = ctx;
	}
	run(root) {
		const rootSdfg = this.readSdfg(root, "$", null);
		while (this.tasks.length > 0) {
			const task = this.tasks.pop();
			if (task.kind === "sdfg") this.readNestedSdfg(task.raw, task.path, task.parent);
			else if (task.kind === "block") task.region.blocks[task.index] = this.readBlock(task.raw, task.path, task.index, task.sdfg);
			else this.readBranch(task);
		}
		return rootSdfg;
	}
	readNestedSdfg(raw, path, parent) {
		let value = raw;
		if (typeof value === "string") {
			if (!value.trimStart().startsWith("{")) this.ctx.fail(path, "a nested SDFG given as a string must hold SDFG JSON text");
			try {
				value = JSON.parse(value);
			} catch (error) {
				this.ctx.fail(path, `the nested SDFG JSON text does not parse: ${error instanceof Error ? error.message : String(error)}`);
			}
		}
		if (!isPlainObject(value)) this.ctx.fail(path, `expected a nested SDFG object, found ${describeValue(value)}`);
		if (value["type"] !== void 0 && value["type"] !== "SDFG") this.ctx.fail(`${path}.type`, `a nested SDFG must have "type": "SDFG", found ${describeValue(value["type"])}`);
		parent.node.sdfg = this.readSdfg(value, path, parent);
	}
	readSdfg(raw, path, parent) {
		const ctx = this.ctx;
		const attrs = objectField(raw, "attributes", path, ctx) ?? {};
		const attrsPath = `${path}.attributes`;
		const name = readString(attrs["name"], readString(raw["label"], ""));
		const body = {
			kind: "region",
			type: "SDFG",
			id: null,
			label: name,
			jsonPath: path,
			cfgId: this.nextCfgId++,
			blocks: [],
			edges: [],
			start: null
		};
		const sdfg = {
			name,
			sdfgIndex: this.sdfgs.length,
			cfgId: body.cfgId,
			arrays: this.readArrays(attrs, attrsPath),
			symbols: this.readSymbols(raw, attrs, attrsPath),
			constants: this.readConstants(attrs, attrsPath),
			argNames: this.readArgNames(attrs, attrsPath),
			globalCode: this.readCodeMap(attrs["global_code"], `${attrsPath}.global_code`),
			initCode: this.readCodeMap(attrs["init_code"], `${attrsPath}.init_code`),
			exitCode: this.readCodeMap(attrs["exit_code"], `${attrsPath}.exit_code`),
			body,
			parent,
			jsonPath: path
		};
		this.sdfgs.push(sdfg);
		this.expandRegion(body, raw, path, sdfg);
		return sdfg;
	}
	readArrays(attrs, attrsPath) {
		const arrays = /* @__PURE__ */ new Map();
		const raw = objectField(attrs, "_arrays", attrsPath, this.ctx);
		if (!raw) return arrays;
		const base = `${attrsPath}._arrays`;
		for (const name of Object.keys(raw)) arrays.set(name, readDescriptor(name, raw[name], keyPath(base, name), this.ctx, { countTransients: true }));
		return arrays;
	}
	readSymbols(raw, attrs, attrsPath) {
		const symbols = /* @__PURE__ */ new Map();
		const declared = objectField(attrs, "symbols", attrsPath, this.ctx);
		if (declared) for (const name of Object.keys(declared)) symbols.set(name, readDType(declared[name], keyPath(`${attrsPath}.symbols`, name), this.ctx) ?? INT32);
		for (const key of ["undefined_symbols", "scalar_parameters"]) {
			const list = raw[key];
			if (!Array.isArray(list)) continue;
			for (let i = 0; i < list.length; i++) {
				const pair = list[i];
				if (!Array.isArray(pair) || typeof pair[0] !== "string" || symbols.has(pair[0])) continue;
				const descriptor = pair[1];
				const dtypeRaw = isPlainObject(descriptor) && isPlainObject(descriptor["attributes"]) ? descriptor["attributes"]["dtype"] : void 0;
				symbols.set(pair[0], readDType(dtypeRaw, `$.${key}[${i}][1].attributes.dtype`, this.ctx) ?? INT32);
			}
		}
		return symbols;
	}
	readConstants(attrs, attrsPath) {
		const constants = /* @__PURE__ */ new Map();
		const raw = objectField(attrs, "constants_prop", attrsPath, this.ctx);
		if (!raw) return constants;
		for (const name of Object.keys(raw)) {
			const entryPath = keyPath(`${attrsPath}.constants_prop`, name);
			const entry = raw[name];
			if (Array.isArray(entry) && entry.length === 2) {
				const descriptor = entry[0] === null ? null : readDescriptor(name, entry[0], `${entryPath}[0]`, this.ctx, { countTransients: false });
				constants.set(name, {
					descriptor,
					value: entry[1]
				});
			} else {
				this.ctx.warn(entryPath, "a constant should be a [descriptor, value] pair; kept as a bare value");
				constants.set(name, {
					descriptor: null,
					value: entry
				});
			}
		}
		return constants;
	}
	readArgNames(attrs, attrsPath) {
		const list = listField(attrs, "arg_names", attrsPath, this.ctx);
		const names = [];
		for (let i = 0; i < list.length; i++) {
			const name = list[i];
			if (typeof name !== "string") this.ctx.fail(`${attrsPath}.arg_names[${i}]`, `an argument name must be a string, found ${describeValue(name)}`);
			names.push(name);
		}
		return names;
	}
	/** Target name → CodeBlock; G0 wrote one CodeBlock, which targets the frame. */
	readCodeMap(raw, path) {
		const out = {};
		if (raw === void 0 || raw === null) return out;
		if (typeof raw === "string" || isPlainObject(raw) && "string_data" in raw) {
			const code = readCode(raw, path, this.ctx);
			if (code && code.code !== "") out["frame"] = code;
			return out;
		}
		if (!isPlainObject(raw)) this.ctx.fail(path, `expected an object of code blocks (target → code), found ${describeValue(raw)}`);
		for (const target of Object.keys(raw)) {
			const code = readCode(raw[target], keyPath(path, target), this.ctx);
			if (code) Object.defineProperty(out, target, {
				value: code,
				enumerable: true,
				writable: true,
				configurable: true
			});
		}
		return out;
	}
	/** Reads a region's interstate edges and start block, and queues its blocks (children after the parent). */
	expandRegion(region, raw, path, sdfg) {
		const blocksRaw = listField(raw, "nodes", path, this.ctx);
		const edgesRaw = listField(raw, "edges", path, this.ctx);
		const count = blocksRaw.length;
		region.blocks = new Array(count);
		const edges = new Array(edgesRaw.length);
		for (let i = 0; i < edgesRaw.length; i++) edges[i] = this.readInterstateEdge(edgesRaw[i], `${path}.edges[${i}]`, i, count);
		region.edges = edges;
		this.ctx.counts.edges += edges.length;
		const startKey = "start_block" in raw ? "start_block" : "start_state";
		region.start = this.computeStart(count, edges, raw[startKey], `${path}.${startKey}`);
		for (let i = count - 1; i >= 0; i--) this.tasks.push({
			kind: "block",
			raw: blocksRaw[i],
			path: `${path}.nodes[${i}]`,
			sdfg,
			region,
			index: i
		});
	}
	/**
	* The start block is the unique block without incoming edges; the stored index counts only when that is
	* ambiguous (§6.1). A stored index that disagrees or points nowhere gets a warning.
	*/
	computeStart(count, edges, storedRaw, path) {
		const stored = typeof storedRaw === "number" ? storedRaw : typeof storedRaw === "string" && /^\d+$/.test(storedRaw) ? Number(storedRaw) : null;
		const storedValid = stored !== null && Number.isInteger(stored) && stored >= 0 && stored < count;
		if (count === 0) {
			if (stored !== null) this.ctx.warn(path, `stored start block ${stored} in a region without blocks (ignored)`);
			return null;
		}
		const hasIncoming = new Uint8Array(count);
		for (const edge of edges) hasIncoming[edge.dst] = 1;
		let source = -1;
		let sources = 0;
		for (let i = 0; i < count; i++) if (hasIncoming[i] === 0) {
			if (sources === 0) source = i;
			sources++;
		}
		if (sources === 1) {
			if (stored !== null && stored !== source) this.ctx.warn(path, storedValid ? `stored start block ${stored} is stale: block ${source} is the only block without incoming edges and is used instead` : `stored start block ${stored} is out of range (${count} blocks): using block ${source}, the only block without incoming edges`);
			return source;
		}
		if (storedValid) return stored;
		const fallback = sources > 0 ? source : 0;
		this.ctx.warn(path, `${stored === null ? "no start block is stored" : `stored start block ${stored} is out of range (${count} blocks)`} and ${sources === 0 ? "every block has incoming edges" : `${sources} blocks have no incoming edges`}: using block ${fallback}`);
		return fallback;
	}
	readInterstateEdge(raw, path, index, blockCount) {
		const ctx = this.ctx;
		if (!isPlainObject(raw)) ctx.fail(path, `expected an interstate edge object, found ${describeValue(raw)}`);
		const src = readIndex(raw["src"], blockCount, `${path}.src`, ctx, "interstate edge source block");
		const dst = readIndex(raw["dst"], blockCount, `${path}.dst`, ctx, "interstate edge destination block");
		const attrs = objectField(raw, "attributes", path, ctx);
		const data = attrs ? attrs["data"] : void 0;
		let edgeAttrs = {};
		let edgeAttrsPath = `${path}.attributes.data`;
		if (isPlainObject(data)) {
			if (isPlainObject(data["attributes"])) {
				edgeAttrs = data["attributes"];
				edgeAttrsPath += ".attributes";
			} else edgeAttrs = data;
		} else if (data !== void 0 && data !== null) ctx.fail(edgeAttrsPath, `expected an InterstateEdge object, found ${describeValue(data)}`);
		const condition = readCodeText(edgeAttrs["condition"], `${edgeAttrsPath}.condition`, ctx);
		const assignments = [];
		const assignRaw = edgeAttrs["assignments"];
		if (isPlainObject(assignRaw)) for (const key of Object.keys(assignRaw)) {
			const value = assignRaw[key];
			if (typeof value === "string") assignments.push([key, value]);
			else if (typeof value === "number" || typeof value === "boolean") assignments.push([key, String(value)]);
			else ctx.fail(keyPath(`${edgeAttrsPath}.assignments`, key), `an assignment must be an expression string, found ${describeValue(value)}`);
		}
		else if (assignRaw !== void 0 && assignRaw !== null) ctx.fail(`${edgeAttrsPath}.assignments`, `"assignments" must be an object (symbol → expression), found ${describeValue(assignRaw)}`);
		return {
			index,
			src,
			dst,
			condition: condition === null || condition.trim() === "" ? "1" : condition,
			assignments,
			jsonPath: path
		};
	}
	readBlock(raw, path, index, sdfg) {
		const ctx = this.ctx;
		if (!isPlainObject(raw)) ctx.fail(path, `expected a control-flow block object, found ${describeValue(raw)}`);
		const type = raw["type"];
		if (type === void 0) ctx.fail(path, "the block has no \"type\" (SDFGState, LoopRegion, ConditionalBlock, …)");
		if (typeof type !== "string") ctx.fail(`${path}.type`, `block "type" must be a string, found ${describeValue(type)}`);
		const storedId = raw["id"];
		if (typeof storedId === "number" && storedId !== index) ctx.warn(`${path}.id`, `block id ${storedId} differs from its position ${index}; edges refer to positions`);
		if (type === "SDFGState") return this.readStateBlock(raw, path, index, sdfg);
		ctx.sawControlFlowBlocks = true;
		const label = readString(raw["label"], "");
		const jump = JUMP_KINDS.get(type);
		if (jump) return {
			kind: jump,
			id: index,
			label,
			jsonPath: path
		};
		if (type === "LoopRegion") return this.readLoop(raw, path, index, label, sdfg);
		if (type === "ConditionalBlock") return this.readConditional(raw, path, index, label, sdfg);
		if (!REGION_TYPES.has(type)) {
			const hasBody = Array.isArray(raw["nodes"]) || Array.isArray(raw["edges"]);
			ctx.warnOnce(`block:${type}`, path, `unknown block type "${type}" (kept as a region${hasBody ? "" : " without a body: it has no \"nodes\""})`);
		}
		const region = {
			kind: "region",
			type,
			id: index,
			label,
			jsonPath: path,
			cfgId: this.nextCfgId++,
			blocks: [],
			edges: [],
			start: null
		};
		this.expandRegion(region, raw, path, sdfg);
		return region;
	}
	readStateBlock(raw, path, index, sdfg) {
		const pending = [];
		const state = readState(raw, path, index, sdfg, this.ctx, pending);
		for (let i = pending.length - 1; i >= 0; i--) {
			const nested = pending[i];
			this.tasks.push({
				kind: "sdfg",
				raw: nested.raw,
				path: nested.path,
				parent: {
					sdfg,
					state,
					node: nested.node
				}
			});
		}
		return state;
	}
	readLoop(raw, path, index, label, sdfg) {
		const ctx = this.ctx;
		const attrs = objectField(raw, "attributes", path, ctx) ?? {};
		const attrsPath = `${path}.attributes`;
		const loopVariable = attrs["loop_variable"];
		const loop = {
			kind: "loop",
			id: index,
			label,
			jsonPath: path,
			cfgId: this.nextCfgId++,
			blocks: [],
			edges: [],
			start: null,
			loopVariable: typeof loopVariable === "string" ? loopVariable : "",
			init: emptyToNull(readCodeText(attrs["init_statement"], `${attrsPath}.init_statement`, ctx)),
			condition: emptyToNull(readCodeText(attrs["loop_condition"], `${attrsPath}.loop_condition`, ctx)),
			update: emptyToNull(readCodeText(attrs["update_statement"], `${attrsPath}.update_statement`, ctx)),
			inverted: readBool(attrs["inverted"], false),
			updateBeforeCondition: readBool(attrs["update_before_condition"], true)
		};
		this.expandRegion(loop, raw, path, sdfg);
		return loop;
	}
	/** Branches come from `branches` only: dev-1.x files repeat the branch regions under `nodes` (§6.5). */
	readConditional(raw, path, index, label, sdfg) {
		const ctx = this.ctx;
		const conditional = {
			kind: "conditional",
			id: index,
			label,
			jsonPath: path,
			cfgId: this.nextCfgId++,
			branches: []
		};
		const branches = raw["branches"];
		if (branches === void 0 || branches === null) {
			ctx.warn(path, "ConditionalBlock without \"branches\": treated as having no branches");
			return conditional;
		}
		if (!Array.isArray(branches)) ctx.fail(`${path}.branches`, `"branches" must be a list of [condition, region] pairs, found ${describeValue(branches)}`);
		conditional.branches = new Array(branches.length);
		for (let i = branches.length - 1; i >= 0; i--) this.tasks.push({
			kind: "branch",
			raw: branches[i],
			path: `${path}.branches[${i}]`,
			sdfg,
			conditional,
			index: i
		});
		return conditional;
	}
	readBranch(task) {
		const ctx = this.ctx;
		const pair = task.raw;
		if (!Array.isArray(pair) || pair.length !== 2) ctx.fail(task.path, "expected a [condition, region] pair");
		const condition = emptyToNull(readCodeText(pair[0], `${task.path}[0]`, ctx));
		const regionRaw = pair[1];
		const regionPath = `${task.path}[1]`;
		if (!isPlainObject(regionRaw)) ctx.fail(regionPath, `expected a branch region object, found ${describeValue(regionRaw)}`);
		const body = {
			kind: "region",
			type: typeof regionRaw["type"] === "string" ? regionRaw["type"] : "ControlFlowRegion",
			id: null,
			label: readString(regionRaw["label"], ""),
			jsonPath: regionPath,
			cfgId: this.nextCfgId++,
			blocks: [],
			edges: [],
			start: null
		};
		task.conditional.branches[task.index] = {
			condition,
			body
		};
		this.expandRegion(body, regionRaw, regionPath, task.sdfg);
	}
};
function emptyToNull(text) {
	return text === null || text.trim() === "" ? null : text;
}
/** Normalises an already-parsed SDFG JSON document. Throws TlabError('input') on unusable content. */
function normaliseSdfg(root, file, jsonBytes, compressed) {
	const ctx = new ParseContext(file);
	if (!isPlainObject(root)) ctx.fail("$", `the JSON root must be an SDFG object, found ${describeValue(root)}`);
	if (root["type"] !== "SDFG") ctx.fail("$.type", root["type"] === void 0 ? "the root object has no \"type\": this is not an SDFG file" : `the root "type" is ${describeValue(root["type"])}, expected "SDFG"`);
	const normaliser = new Normaliser(ctx);
	const rootSdfg = normaliser.run(root);
	const grammar = detectGrammar(ctx.dollarSamples);
	const versionRaw = root["dace_version"];
	return {
		path: file,
		compressed,
		jsonBytes,
		daceVersion: typeof versionRaw === "string" ? versionRaw : typeof versionRaw === "number" ? String(versionRaw) : null,
		generation: guessGeneration(root, ctx, grammar),
		grammar,
		root: rootSdfg,
		sdfgs: normaliser.sdfgs,
		sourceFiles: readSourceFiles(root, ctx),
		dumpError: readDumpError(root),
		stats: {
			sdfgs: normaliser.sdfgs.length,
			states: ctx.counts.states,
			nodes: ctx.counts.nodes,
			edges: ctx.counts.edges,
			transients: ctx.counts.transients
		},
		warnings: ctx.finishWarnings()
	};
}
/** Best guess of the writer (§3); features are detected from content, this is only a display hint. */
function guessGeneration(root, ctx, grammar) {
	if ("undefined_symbols" in root || "scalar_parameters" in root) return "G0";
	if (!("sdfg_list_id" in root) && !("cfg_list_id" in root) && ctx.sawListConnectors) return "G0";
	if (grammar === "typed") return "G5";
	if ("source_files" in root) return "G4";
	if (ctx.sawControlFlowBlocks) return "G3";
	if ("cfg_list_id" in root || "start_block" in root) return "G2";
	return "G1";
}
function readSourceFiles(root, ctx) {
	const raw = root["source_files"];
	if (raw === void 0 || raw === null) return [];
	if (!Array.isArray(raw)) {
		ctx.warn("$.source_files", `"source_files" should be a list of paths, found ${describeValue(raw)} (ignored)`);
		return [];
	}
	return raw.map((entry) => typeof entry === "string" ? entry : String(entry));
}
function readDumpError(root) {
	const raw = root["error"];
	if (raw === void 0 || raw === null) return null;
	if (typeof raw === "string") return {
		message: raw,
		raw
	};
	return {
		message: isPlainObject(raw) && typeof raw["message"] === "string" ? raw["message"] : "the writer recorded an error without a message",
		raw
	};
}
// electron/engine/sdfg/index.ts
/**
* SDFG file parser: bytes → sniff → gunzip → UTF-8 → JSON.parse → normalised model (engine/model/sdfg.ts).
* Every failure on bad input is a TlabError('input') naming the file and, where it applies, the JSON path.
*/
async function readSdfgFile(path) {
	let bytes;
	try {
		bytes = await readFile(path);
	} catch (error) {
		const code = error.code;
		throw new TlabError("input", `cannot read the SDFG file: ${code === "ENOENT" ? "the file does not exist" : code === "EISDIR" ? "this is a folder, not a file" : code === "EACCES" || code === "EPERM" ? "permission denied" : error instanceof Error ? error.message : String(error)}`, {
			file: path,
			cause: error
		});
	}
	return parseSdfgBytes(bytes, path);
}
function parseSdfgBytes(bytes, path) {
	const sniff = sniffSdfg(bytes);
	if (!sniff.ok) throw new TlabError("input", sniff.reason, { file: path });
	const { root, jsonBytes } = parseContent(bytes, sniff.compressed, path);
	return parseSdfgJson(root, path, jsonBytes, sniff.compressed);
}
function parseSdfgJson(root, path, jsonBytes, compressed) {
	return normaliseSdfg(root, path, jsonBytes, compressed);
}
/** Kept separate from decoding so that the decompressed bytes are garbage once the text exists. */
function parseContent(bytes, compressed, path) {
	const { text, jsonBytes } = decodeContent(bytes, compressed, path);
	return {
		root: parseJsonText(text, path),
		jsonBytes
	};
}
function decodeContent(bytes, compressed, path) {
	const json = compressed ? gunzipContent(bytes, path) : bytes;
	if (compressed) {
		const reason = rejectJsonContent(json, true);
		if (reason !== null) throw new TlabError("input", `gzip-compressed, but ${reason}`, { file: path });
	}
	return {
		text: decodeUtf8(json, path),
		jsonBytes: json.length
	};
}
// electron/engine/view/graph-labels.ts
const ONE = {
	k: "int",
	v: 1n
};
/** Memoised printing of one file's symbolic strings (labels repeat the same few expressions thousands of times). */
var SymText = class {
	grammar;
	shown = /* @__PURE__ */ new Map();
	plusOne = /* @__PURE__ */ new Map();
	constructor(grammar) {
		this.grammar = grammar;
	}
	show(s) {
		let out = this.shown.get(s);
		if (out === void 0) {
			out = this.tryParse(s, (e) => show(e)) ?? s.trim();
			this.shown.set(s, out);
		}
		return out;
	}
	/** `end + 1`, simplified: inclusive range ends become the exclusive ends of slice notation. */
	showPlusOne(s) {
		let out = this.plusOne.get(s);
		if (out === void 0) {
			out = this.tryParse(s, (e) => show(simplify({
				k: "bin",
				op: "+",
				a: e,
				b: ONE
			}))) ?? `${s.trim()} + 1`;
			this.plusOne.set(s, out);
		}
		return out;
	}
	tryParse(s, f) {
		try {
			return f(parseSym(s, this.grammar));
		} catch {
			return null;
		}
	}
};
/** One dimension in slice notation: `i`, `0:N`, `0:N:2`. */
function dimText(d, sym) {
	const start = sym.show(d.start);
	if (start === sym.show(d.end)) return start;
	const step = sym.show(d.step);
	return step === "1" ? `${start}:${sym.showPlusOne(d.end)}` : `${start}:${sym.showPlusOne(d.end)}:${step}`;
}
function subsetText(subset, sym) {
	switch (subset.kind) {
		case "range": return subset.dims.map((d) => dimText(d, sym)).join(", ");
		case "indices": return subset.indices.map((i) => sym.show(i)).join(", ");
		case "union": return subset.subsets.map((s) => `[${subsetText(s, sym)}]`).join(" ∪ ");
	}
}
/** `i = 0:N` for each map parameter. */
function mapParams(params, range, sym) {
	return params.map((p, i) => range[i] ? `${p} = ${dimText(range[i], sym)}` : p);
}
const WCR_NAMES = [
	[/^\(?(\w+)\+(\w+)\)?$/, "sum"],
	[/^\(?(\w+)\*(\w+)\)?$/, "product"],
	[/^\(?min\((\w+),(\w+)\)\)?$/, "min"],
	[/^\(?max\((\w+),(\w+)\)\)?$/, "max"]
];
/** `(lambda a, b: (a + b))` → `sum`; other lambdas → their body. */
function wcrName(wcr) {
	const m = /lambda\s*([^:]*):(.*)$/s.exec(wcr.trim().replace(/^\(/, "").replace(/\)$/, ""));
	if (!m) return wcr.trim();
	const body = m[2].trim();
	const compact = body.replace(/\s+/g, "");
	for (const [re, name] of WCR_NAMES) {
		const r = re.exec(compact);
		if (r && r[1] !== r[2]) return name;
	}
	return body;
}
/** Keeps a label readable on a node: at most `max` characters, with an ellipsis. */
function clip(text, max) {
	return text.length <= max ? text : `${text.slice(0, max - 1)}…`;
}
/** The first `lines` lines of tasklet code, each clipped; blank lines dropped. */
function codePreview(code, lines = 4, width = 60) {
	const all = code.split(/\r?\n/).filter((l) => l.trim() !== "");
	return {
		text: all.slice(0, lines).map((l) => clip(l.trimEnd(), width)).join("\n"),
		lines: all.length
	};
}
/** `A[i, 0:N]` (+ ` → [j]` for a copy with re-indexing), ` (dyn)` when dynamic, ` (CR: sum)` with WCR. */
function memletLabel(m, sym) {
	if (m.data === null) return "";
	let text = m.subset === null ? m.data : `${m.data}[${subsetText(m.subset, sym)}]`;
	if (m.otherSubset !== null) text += ` → [${subsetText(m.otherSubset, sym)}]`;
	if (m.dynamic) text += " (dyn)";
	if (m.wcr !== null) text += ` (CR: ${wcrName(m.wcr)})`;
	return text;
}
const isEntry = (n) => n?.kind === "map_entry" || n?.kind === "consume_entry";
const cache = /* @__PURE__ */ new WeakMap();
function stateScopes(state) {
	let s = cache.get(state);
	if (!s) {
		s = build(state);
		cache.set(state, s);
	}
	return s;
}
function build(state) {
	const nodes = state.nodes;
	const parent = new Array(nodes.length);
	for (let i = 0; i < nodes.length; i++) {
		const se = nodes[i].scopeEntry;
		parent[i] = se !== null && se !== i && isEntry(nodes[se]) ? se : -1;
	}
	const exitOwner = new Array(nodes.length).fill(null);
	const exitOfEntry = /* @__PURE__ */ new Map();
	for (let i = 0; i < nodes.length; i++) {
		const n = nodes[i];
		if ((n.kind === "map_exit" || n.kind === "consume_exit") && n.entryId !== null && isEntry(nodes[n.entryId])) {
			exitOwner[i] = n.entryId;
			if (!exitOfEntry.has(n.entryId)) exitOfEntry.set(n.entryId, i);
		}
	}
	const levelParent = (entry) => {
		const p = parent[entry];
		return p === entry ? -1 : p;
	};
	const chains = /* @__PURE__ */ new Map([[-1, []]]);
	const chain = (level) => {
		let c = chains.get(level);
		if (c) return c;
		const up = [];
		const seen = /* @__PURE__ */ new Set();
		for (let l = level; l !== -1 && !seen.has(l); l = levelParent(l)) {
			seen.add(l);
			up.push(l);
		}
		c = up.reverse();
		chains.set(level, c);
		return c;
	};
	const levelNodes = /* @__PURE__ */ new Map();
	const push = (m, k, v) => {
		const list = m.get(k);
		if (list) list.push(v);
		else m.set(k, [v]);
	};
	for (let i = 0; i < nodes.length; i++) {
		if (exitOwner[i] !== null) continue;
		push(levelNodes, parent[i], i);
	}
	const srcEnd = (i) => {
		if (isEntry(nodes[i])) return {
			level: i,
			ep: { kind: "boundary" }
		};
		const owner = exitOwner[i];
		if (owner !== null && owner !== void 0) return {
			level: levelParent(owner),
			ep: {
				kind: "node",
				node: owner
			}
		};
		return {
			level: parent[i],
			ep: {
				kind: "node",
				node: i
			}
		};
	};
	const dstEnd = (i) => {
		const owner = exitOwner[i];
		if (owner !== null && owner !== void 0) return {
			level: owner,
			ep: { kind: "boundary" }
		};
		if (isEntry(nodes[i])) return {
			level: levelParent(i),
			ep: {
				kind: "node",
				node: i
			}
		};
		return {
			level: parent[i],
			ep: {
				kind: "node",
				node: i
			}
		};
	};
	/** The endpoint as seen from `target`, an enclosing level of `level`. */
	const lift = (level, ep, target) => {
		if (level === target) return ep;
		const c = chain(level);
		return {
			kind: "node",
			node: c[target === -1 ? 0 : c.indexOf(target) + 1]
		};
	};
	const levelEdges = /* @__PURE__ */ new Map();
	for (const edge of state.edges) {
		if (!nodes[edge.src] || !nodes[edge.dst]) continue;
		const s = srcEnd(edge.src);
		const d = dstEnd(edge.dst);
		let level;
		if (s.level === d.level) level = s.level;
		else {
			const cs = chain(s.level);
			const cd = chain(d.level);
			let k = 0;
			while (k < cs.length && k < cd.length && cs[k] === cd[k]) k++;
			level = k === 0 ? -1 : cs[k - 1];
		}
		const src = lift(s.level, s.ep, level);
		const dst = lift(d.level, d.ep, level);
		push(levelEdges, level, {
			edge,
			src,
			dst
		});
	}
	return {
		nodes: levelNodes,
		edges: levelEdges,
		chain,
		levelOf: (i) => exitOwner[i] ?? parent[i] ?? -1,
		exitOf: (entry) => exitOfEntry.get(entry) ?? null
	};
}
// electron/engine/view/graph-summary.ts
const empty = () => ({
	states: 0,
	nodes: 0,
	maps: 0,
	tasklets: 0,
	loops: 0,
	sdfgs: 0,
	transients: /* @__PURE__ */ new Set()
});
function add(into, from) {
	into.states += from.states;
	into.nodes += from.nodes;
	into.maps += from.maps;
	into.tasklets += from.tasklets;
	into.loops += from.loops;
	into.sdfgs += from.sdfgs;
	for (const t of from.transients) into.transients.add(t);
}
/** The descriptor an access node names: a top-level container or a dotted structure member. */
function lookupDescriptor(sdfg, data) {
	const direct = sdfg.arrays.get(data);
	if (direct) return direct;
	const parts = data.split(".");
	let desc = sdfg.arrays.get(parts[0]) ?? null;
	for (let i = 1; desc && i < parts.length; i++) desc = desc.members?.find((m) => m.name === parts[i]) ?? null;
	return desc;
}
/** The analysis id (`<sdfgIndex>:<name>`) of a transient container, or null for anything else. */
function transientId(sdfg, data) {
	if (lookupDescriptor(sdfg, data)?.transient) return `${sdfg.sdfgIndex}:${data}`;
	return (data.includes(".") ? sdfg.arrays.get(data.split(".")[0]) : void 0)?.transient ? `${sdfg.sdfgIndex}:${data}` : null;
}
var Summaries = class {
	accs = /* @__PURE__ */ new WeakMap();
	scopeAccs = /* @__PURE__ */ new WeakMap();
	out = /* @__PURE__ */ new WeakMap();
	cfg(sdfg, block) {
		return this.summary(this.cfgAcc(sdfg, block));
	}
	state(sdfg, state) {
		return this.summary(this.stateAcc(sdfg, state));
	}
	conditional(sdfg, block) {
		return this.summary(this.blockAcc(sdfg, block));
	}
	scope(sdfg, state, entry) {
		return this.summary(this.scopeAccsOf(sdfg, state).get(entry) ?? empty());
	}
	summary(acc) {
		let s = this.out.get(acc);
		if (!s) {
			const { transients, ...counts } = acc;
			s = {
				...counts,
				transients: [...transients].sort()
			};
			this.out.set(acc, s);
		}
		return s;
	}
	blockAcc(sdfg, b) {
		switch (b.kind) {
			case "state": return this.stateAcc(sdfg, b);
			case "region":
			case "loop": return this.cfgAcc(sdfg, b);
			case "conditional": return this.memo(b, () => {
				const acc = empty();
				for (const br of b.branches) add(acc, this.cfgAcc(sdfg, br.body));
				return acc;
			});
			default: return empty();
		}
	}
	cfgAcc(sdfg, block) {
		return this.memo(block, () => {
			const acc = empty();
			if (block.kind === "loop") acc.loops++;
			for (const b of block.blocks) add(acc, this.blockAcc(sdfg, b));
			return acc;
		});
	}
	stateAcc(sdfg, state) {
		return this.memo(state, () => {
			const acc = empty();
			acc.states = 1;
			for (const n of state.nodes) this.countNode(sdfg, n, acc);
			return acc;
		});
	}
	countNode(sdfg, n, acc) {
		acc.nodes++;
		if (n.kind === "map_entry" || n.kind === "consume_entry") acc.maps++;
		else if (n.kind === "tasklet") acc.tasklets++;
		else if (n.kind === "access") {
			const t = transientId(sdfg, n.data);
			if (t !== null) acc.transients.add(t);
		} else if (n.kind === "nested_sdfg" && n.sdfg) {
			acc.sdfgs++;
			add(acc, this.cfgAcc(n.sdfg, n.sdfg.body));
		}
	}
	/** Every scope of a state at once: each node counts towards every scope around it. */
	scopeAccsOf(sdfg, state) {
		let m = this.scopeAccs.get(state);
		if (m) return m;
		m = /* @__PURE__ */ new Map();
		const scopes = stateScopes(state);
		for (let i = 0; i < state.nodes.length; i++) {
			const n = state.nodes[i];
			const chain = scopes.chain(scopes.levelOf(i));
			const inner = (n.kind === "map_exit" || n.kind === "consume_exit") && chain.length > 0 && scopes.exitOf(chain[chain.length - 1]) === i ? chain.slice(0, -1) : chain;
			if (inner.length === 0) continue;
			const one = empty();
			this.countNode(sdfg, n, one);
			for (const level of inner) {
				let acc = m.get(level);
				if (!acc) m.set(level, acc = empty());
				add(acc, one);
			}
		}
		this.scopeAccs.set(state, m);
		return m;
	}
	memo(key, f) {
		let acc = this.accs.get(key);
		if (!acc) {
			acc = f();
			this.accs.set(key, acc);
		}
		return acc;
	}
};
// electron/engine/view/graph-search.ts
var Limit = class extends Error {};
/** The line of `text` holding the match, cut to about 80 characters around it. */
function snippet(text, at, length) {
	const lineStart = text.lastIndexOf("\n", at) + 1;
	const nl = text.indexOf("\n", at);
	const line = text.slice(lineStart, nl < 0 ? text.length : nl);
	const col = at - lineStart;
	const from = Math.max(0, col - 30);
	const to = Math.min(line.length, col + length + 40);
	return `${from > 0 ? "…" : ""}${line.slice(from, to).trim()}${to < line.length ? "…" : ""}`;
}
function searchElements(model, query, limit) {
	const q = query.trim().toLowerCase();
	const hits = [];
	if (q === "" || limit <= 0) return hits;
	const seen = /* @__PURE__ */ new Set();
	/** Records a hit on the first field of an element that matches; true when it matched. */
	const test = (id, path, label, kind, fields) => {
		if (seen.has(id)) return;
		for (const [field, text] of fields) {
			if (!text) continue;
			const at = text.toLowerCase().indexOf(q);
			if (at < 0) continue;
			seen.add(id);
			hits.push({
				id,
				path,
				label,
				kind,
				field,
				snippet: snippet(text, at, q.length)
			});
			if (hits.length >= limit) throw new Limit();
			return;
		}
	};
	const cfg = (sdfg, block, path) => {
		for (const b of block.blocks) {
			const inner = [...path, b.jsonPath];
			switch (b.kind) {
				case "state":
					test(b.jsonPath, path, b.label, "state", [["label", b.label]]);
					state(sdfg, b, inner);
					break;
				case "loop":
					test(b.jsonPath, path, b.label, "loop", [["label", b.label], ["condition", [
						b.init,
						b.condition,
						b.update
					].filter(Boolean).join("\n")]]);
					cfg(sdfg, b, inner);
					break;
				case "region":
					test(b.jsonPath, path, b.label, "region", [["label", b.label]]);
					cfg(sdfg, b, inner);
					break;
				case "conditional":
					test(b.jsonPath, path, b.label, "conditional", [["label", b.label]]);
					for (const br of b.branches) {
						test(br.body.jsonPath, inner, br.condition ?? "else", "branch", [["condition", br.condition]]);
						cfg(sdfg, br.body, [...inner, br.body.jsonPath]);
					}
					break;
				default: test(b.jsonPath, path, b.label, b.kind, [["label", b.label]]);
			}
		}
		for (const e of block.edges) {
			const text = [e.condition === "1" ? "" : e.condition, ...e.assignments.map(([k, v]) => `${k} = ${v}`)].filter(Boolean).join("\n");
			test(e.jsonPath, path, text.split("\n")[0] ?? "", "interstate", [["condition", text]]);
		}
	};
	const state = (sdfg, st, path) => {
		const scopes = stateScopes(st);
		for (const n of st.nodes) {
			if (n.kind === "map_exit" || n.kind === "consume_exit") continue;
			const chain = scopes.chain(scopes.levelOf(n.id)).map((l) => st.nodes[l].jsonPath);
			const at = [...path, ...chain];
			node(sdfg, n, at);
			if (n.kind === "nested_sdfg" && n.sdfg) cfg(n.sdfg, n.sdfg.body, [...at, n.jsonPath]);
		}
	};
	const node = (_sdfg, n, path) => {
		switch (n.kind) {
			case "access":
				test(n.jsonPath, path, n.data, "access", [["data", n.data]]);
				break;
			case "tasklet":
				test(n.jsonPath, path, n.label, "tasklet", [["label", n.label], ["code", n.code.code]]);
				break;
			case "map_entry":
				test(n.jsonPath, path, n.map.label, "map", [["label", n.label], ["label", mapParams(n.map.params, n.map.range, model.sym).join(", ")]]);
				break;
			case "consume_entry":
				test(n.jsonPath, path, n.label, "consume", [["label", n.label]]);
				break;
			case "nested_sdfg":
				test(n.jsonPath, path, n.label, "nested_sdfg", [["label", n.label]]);
				break;
			case "library":
				test(n.jsonPath, path, n.label, "library", [["label", `${n.label}\n${n.className}`]]);
				break;
			default: test(n.jsonPath, path, n.label, "unknown", [["label", n.label]]);
		}
	};
	try {
		cfg(model.file.root, model.file.root.body, []);
	} catch (e) {
		if (!(e instanceof Limit)) throw e;
	}
	return hits;
}
// electron/engine/analysis/expr.ts
var ExprCache = class {
	grammar;
	symbolic = /* @__PURE__ */ new Map();
	python = /* @__PURE__ */ new Map();
	names = /* @__PURE__ */ new WeakMap();
	constructor(grammar) {
		this.grammar = grammar;
	}
	/** A symbolic field (shape, total_size, range bound, symbol mapping); throws the parser's error. */
	sym(src) {
		let hit = this.symbolic.get(src);
		if (hit === void 0) {
			try {
				hit = parseSym(src, this.grammar);
			} catch (err) {
				hit = err instanceof Error ? err : new Error(String(err));
			}
			this.symbolic.set(src, hit);
		}
		if (hit instanceof Error) throw hit;
		return hit;
	}
	/** A symbolic field as people read it (`I + 2`, not the typed grammar's `2 + $I`); the source text when
	* it does not parse, so display never fails. */
	display(src) {
		try {
			return show(this.sym(src));
		} catch {
			return src;
		}
	}
	/** Like `sym`, but for sizes: a `SymExpr(exact, approx)` contributes its over-approximation. */
	size(src) {
		return approxOf(this.sym(src));
	}
	/** Python code (conditions, assignments' right-hand sides); throws on syntax errors. */
	py(src) {
		let hit = this.python.get(src);
		if (hit === void 0) {
			try {
				hit = parsePython(src);
			} catch (err) {
				hit = err instanceof Error ? err : new Error(String(err));
			}
			this.python.set(src, hit);
		}
		if (hit instanceof Error) throw hit;
		return hit;
	}
	/** Free names of an expression (symbols, and containers read by subscripts in Python code). */
	namesOf(e) {
		const key = e;
		let hit = this.names.get(key);
		if (!hit) {
			hit = freeSymbols(e);
			this.names.set(key, hit);
		}
		return hit;
	}
};
const intExpr = (v) => E.int(typeof v === "bigint" ? v : BigInt(v));
const symExpr = (name) => E.sym(name);
const addExpr = (a, b) => ({
	k: "bin",
	op: "+",
	a,
	b
});
const mulExpr = (a, b) => ({
	k: "bin",
	op: "*",
	a,
	b
});
function evaluate(e, env) {
	try {
		return evalInt(e, env);
	} catch {
		return null;
	}
}
function rename(e, mapping) {
	return mapping.size === 0 ? e : substitute(e, mapping);
}
function render(e) {
	try {
		return show(simplify(e));
	} catch {
		return show(e);
	}
}
// electron/engine/analysis/sizes.ts
function dtypeName(d) {
	switch (d.kind) {
		case "scalar": return d.name;
		case "pointer": return `pointer<${d.base ? dtypeName(d.base) : "void"}>`;
		case "vector": return `vector<${dtypeName(d.base)}, ${d.elements}>`;
		case "struct": return `struct ${d.name}`;
		case "opaque": return `opaque ${d.ctype}`;
		default: return "unknown";
	}
}
function footprint(desc, sdfg, symbols) {
	const elementBytes = desc.dtype.bytes;
	const sizeSrc = desc.type === "Scalar" ? "1" : desc.totalSize;
	let size;
	try {
		size = symbols.exprs.size(sizeSrc);
	} catch (err) {
		return {
			localExpr: null,
			rootExpr: null,
			bytes: null,
			bytesExpr: `${sizeSrc} × ${elementBytes ?? "?"}`,
			sizeSymbols: [],
			untranslated: [],
			problem: `cannot read total_size '${sizeSrc}': ${err.message}`
		};
	}
	const sizeSymbols = [...symbols.exprs.namesOf(size)].sort();
	const localExpr = elementBytes === null ? null : elementBytes === 1 ? size : mulExpr(intExpr(elementBytes), size);
	const root = symbols.toRoot(sdfg, size);
	const rootExpr = root.expr && elementBytes !== null ? elementBytes === 1 ? root.expr : mulExpr(intExpr(elementBytes), root.expr) : null;
	const bytes = rootExpr ? symbols.valueOf(rootExpr) : null;
	const shown = rootExpr ?? localExpr;
	return {
		localExpr,
		rootExpr,
		bytes,
		bytesExpr: bytes !== null ? bytes.toString() : shown ? render(shown) : `(${render(size)}) × ?`,
		sizeSymbols,
		untranslated: root.untranslated,
		problem: null
	};
}
/** Per-file state of the graph view: which ids name what, memoised summaries and label printing. */
var GraphModel = class {
	file;
	sym;
	summaries;
	elements = /* @__PURE__ */ new Map();
	indexed = false;
	constructor(file) {
		this.file = file;
		this.sym = new SymText(file.grammar);
		this.summaries = new Summaries();
		this.elements.set("$", {
			kind: "cfg",
			sdfg: file.root,
			block: file.root.body
		});
	}
	/** The drawable content of one region; `null` = the root SDFG. */
	region(id) {
		const key = id ?? "$";
		const el = this.lookup(key);
		switch (el.kind) {
			case "cfg": return this.cfgRegion(key, el.sdfg, el.block, el.block.label);
			case "nested": return this.cfgRegion(key, el.inner, el.inner.body, el.inner.name);
			case "conditional": return this.conditionalRegion(key, el.sdfg, el.block);
			case "state": return this.dataflowRegion(key, "state", el.sdfg, el.state, -1, el.state.label);
			case "scope": return this.dataflowRegion(key, "scope", el.sdfg, el.state, el.entry.id, el.entry.label);
		}
	}
	search(query, limit) {
		this.indexAll();
		return searchElements(this, query, limit);
	}
	/** Every expandable element of the file, registered once (search and ids the renderer got elsewhere). */
	indexAll() {
		if (this.indexed) return;
		this.indexed = true;
		for (const sdfg of this.file.sdfgs) this.indexCfg(sdfg, sdfg.body);
	}
	register(id, el) {
		this.elements.set(id, el);
	}
	lookup(id) {
		let el = this.elements.get(id);
		if (!el && !this.indexed) {
			this.indexAll();
			el = this.elements.get(id);
		}
		if (!el) throw new TlabError("usage", `the graph has no expandable element "${clip(id, 200)}" (a state, region, loop, branch, scope or nested SDFG)`, {
			file: this.file.path,
			jsonPath: id.startsWith("$") ? id : null
		});
		return el;
	}
	indexCfg(sdfg, block) {
		for (const b of block.blocks) {
			this.registerBlock(sdfg, b);
			if (b.kind === "region" || b.kind === "loop") this.indexCfg(sdfg, b);
			else if (b.kind === "conditional") for (const br of b.branches) this.indexCfg(sdfg, br.body);
			else if (b.kind === "state") {
				for (const n of b.nodes) if (n.kind === "map_entry" || n.kind === "consume_entry") this.register(n.jsonPath, {
					kind: "scope",
					sdfg,
					state: b,
					entry: n
				});
				else if (n.kind === "nested_sdfg" && n.sdfg) this.register(n.jsonPath, {
					kind: "nested",
					sdfg,
					inner: n.sdfg
				});
			}
		}
	}
	registerBlock(sdfg, b) {
		if (b.kind === "region" || b.kind === "loop") this.register(b.jsonPath, {
			kind: "cfg",
			sdfg,
			block: b
		});
		else if (b.kind === "state") this.register(b.jsonPath, {
			kind: "state",
			sdfg,
			state: b
		});
		else if (b.kind === "conditional") {
			this.register(b.jsonPath, {
				kind: "conditional",
				sdfg,
				block: b
			});
			for (const br of b.branches) this.register(br.body.jsonPath, {
				kind: "cfg",
				sdfg,
				block: br.body
			});
		}
	}
	cfgRegion(id, sdfg, block, label) {
		const nodes = block.blocks.map((b, i) => this.blockNode(sdfg, b, i === block.start));
		const edges = [];
		for (const e of block.edges) {
			const src = block.blocks[e.src];
			const dst = block.blocks[e.dst];
			if (!src || !dst) continue;
			const condition = e.condition.trim() === "1" || e.condition.trim() === "True" ? null : e.condition.trim();
			const parts = [...condition === null ? [] : [condition], ...e.assignments.map(([k, v]) => `${k} = ${v}`)];
			edges.push({
				kind: "interstate",
				id: e.jsonPath,
				src: src.jsonPath,
				dst: dst.jsonPath,
				label: parts.join("; "),
				condition,
				assignments: e.assignments
			});
		}
		return this.regionOf(id, "cfg", sdfg, label, nodes, edges);
	}
	conditionalRegion(id, sdfg, block) {
		const nodes = block.branches.map((br) => {
			this.register(br.body.jsonPath, {
				kind: "cfg",
				sdfg,
				block: br.body
			});
			return {
				kind: "branch",
				id: br.body.jsonPath,
				label: br.condition === null ? "else" : `if ${br.condition}`,
				condition: br.condition,
				expand: br.body.jsonPath,
				summary: this.summaries.cfg(sdfg, br.body)
			};
		});
		return this.regionOf(id, "conditional", sdfg, block.label, nodes, []);
	}
	blockNode(sdfg, b, start) {
		this.registerBlock(sdfg, b);
		const base = {
			id: b.jsonPath,
			label: b.label
		};
		switch (b.kind) {
			case "state": {
				const open = b.nodes.length > 0;
				return {
					...base,
					kind: "state",
					start,
					expand: open ? b.jsonPath : null,
					summary: open ? this.summaries.state(sdfg, b) : null
				};
			}
			case "region": {
				const open = b.blocks.length > 0;
				return {
					...base,
					kind: "region",
					start,
					regionType: b.type,
					expand: open ? b.jsonPath : null,
					summary: open ? this.summaries.cfg(sdfg, b) : null
				};
			}
			case "loop": return {
				...base,
				kind: "loop",
				start,
				variable: b.loopVariable,
				init: b.init,
				condition: b.condition,
				update: b.update,
				inverted: b.inverted,
				expand: b.jsonPath,
				summary: this.summaries.cfg(sdfg, b)
			};
			case "conditional": return {
				...base,
				kind: "conditional",
				start,
				conditions: b.branches.map((br) => br.condition),
				expand: b.jsonPath,
				summary: this.summaries.conditional(sdfg, b)
			};
			default: return {
				...base,
				kind: b.kind,
				start,
				expand: null,
				summary: null
			};
		}
	}
	dataflowRegion(id, kind, sdfg, state, level, label) {
		const scopes = stateScopes(state);
		const nodes = (scopes.nodes.get(level) ?? []).map((i) => this.dataflowNode(sdfg, state, state.nodes[i]));
		const endpoint = (ep) => ep.kind === "boundary" ? id : state.nodes[ep.node].jsonPath;
		const edges = (scopes.edges.get(level) ?? []).map(({ edge, src, dst }) => {
			const m = edge.memlet;
			return {
				kind: "memlet",
				id: edge.jsonPath,
				src: endpoint(src),
				dst: endpoint(dst),
				srcConnector: edge.srcConnector,
				dstConnector: edge.dstConnector,
				label: memletLabel(m, this.sym),
				data: m.data,
				volume: this.sym.show(m.volume),
				dynamic: m.dynamic,
				wcr: m.wcr === null ? null : wcrName(m.wcr),
				transient: m.data === null ? null : transientId(sdfg, m.data)
			};
		});
		return this.regionOf(id, kind, sdfg, label, nodes, edges);
	}
	dataflowNode(sdfg, state, n) {
		const base = {
			id: n.jsonPath,
			label: n.label,
			inConnectors: Object.keys(n.inConnectors),
			outConnectors: Object.keys(n.outConnectors),
			expand: null,
			summary: null
		};
		switch (n.kind) {
			case "access": {
				const desc = lookupDescriptor(sdfg, n.data);
				return {
					...base,
					kind: "access",
					label: n.data,
					data: n.data,
					transient: transientId(sdfg, n.data),
					storage: desc?.storage ?? null,
					descriptor: desc ? {
						type: desc.type,
						dtype: dtypeName(desc.dtype),
						shape: desc.shape.map((s) => this.sym.show(s))
					} : null
				};
			}
			case "tasklet": {
				const preview = codePreview(n.code.code);
				return {
					...base,
					kind: "tasklet",
					language: n.code.language,
					code: preview.text,
					codeLines: preview.lines
				};
			}
			case "map_entry":
			case "consume_entry": {
				this.register(n.jsonPath, {
					kind: "scope",
					sdfg,
					state,
					entry: n
				});
				const exitIdx = stateScopes(state).exitOf(n.id);
				const exit = exitIdx === null ? null : state.nodes[exitIdx];
				const isMap = n.kind === "map_entry";
				return {
					...base,
					kind: isMap ? "map" : "consume",
					label: isMap ? n.map.label : n.label,
					params: isMap ? mapParams(n.map.params, n.map.range, this.sym) : [`${n.peIndex} = 0:${this.sym.show(n.numPes)}`],
					schedule: isMap ? n.map.schedule : n.schedule,
					inConnectors: base.inConnectors,
					outConnectors: exit ? Object.keys(exit.outConnectors) : [],
					entryOut: base.outConnectors,
					exitIn: exit ? Object.keys(exit.inConnectors) : [],
					exitId: exit?.jsonPath ?? null,
					expand: n.jsonPath,
					summary: this.summaries.scope(sdfg, state, n.id)
				};
			}
			case "nested_sdfg": {
				const inner = n.sdfg;
				if (inner) this.register(n.jsonPath, {
					kind: "nested",
					sdfg,
					inner
				});
				return {
					...base,
					kind: "nested_sdfg",
					sdfg: inner?.sdfgIndex ?? null,
					symbolMapping: Object.entries(n.symbolMapping).map(([k, v]) => `${k} = ${this.sym.show(v)}`),
					expand: inner ? n.jsonPath : null,
					summary: inner ? this.summaries.cfg(inner, inner.body) : null
				};
			}
			case "library": return {
				...base,
				kind: "library",
				className: n.className,
				implementation: n.implementation
			};
			case "unknown": return {
				...base,
				kind: "unknown",
				type: n.type
			};
			case "map_exit":
			case "consume_exit": return {
				...base,
				kind: "unknown",
				type: n.kind === "map_exit" ? "MapExit" : "ConsumeExit"
			};
		}
	}
	regionOf(id, kind, sdfg, label, nodes, edges) {
		return {
			id,
			kind,
			sdfg: sdfg.sdfgIndex,
			label,
			nodes,
			edges
		};
	}
};
const models = /* @__PURE__ */ new WeakMap();
/** The view-model state of a parsed file, created on first use and kept as long as the file is. */
function graphModel(file) {
	let m = models.get(file);
	if (!m) {
		m = new GraphModel(file);
		models.set(file, m);
	}
	return m;
}
/** Drawable content of one region (`null` = the root SDFG). Unknown ids are a `usage` TlabError. */
function graphRegion(file, region) {
	return graphModel(file).region(region);
}
/** Case-insensitive search over labels, container names, tasklet code, conditions and assignments. */
function searchGraph(file, query, limit) {
	return graphModel(file).search(query, limit);
}
// electron/engine/analysis/walk.ts
function forEachState(region, visit) {
	const stack = [...region.blocks].reverse();
	while (stack.length) {
		const b = stack.pop();
		if (b.kind === "state") visit(b);
		else if (b.kind === "region" || b.kind === "loop") for (let i = b.blocks.length - 1; i >= 0; i--) stack.push(b.blocks[i]);
		else if (b.kind === "conditional") for (let i = b.branches.length - 1; i >= 0; i--) stack.push(b.branches[i].body);
	}
}
/** The chain of scope entry nodes around `node`, innermost first. Stops on cycles in malformed files. */
function scopeChain(state, node) {
	const out = [];
	let id = node.scopeEntry;
	while (id !== null && out.length <= state.nodes.length) {
		const entry = state.nodes[id];
		if (!entry) break;
		out.push(entry);
		id = entry.scopeEntry;
	}
	return out;
}
function scopeLabel(node) {
	return node.kind === "map_entry" ? node.map.label : node.label;
}
function scheduleOf(node) {
	if (node.kind === "map_entry") return node.map.schedule;
	if (node.kind === "consume_entry" || node.kind === "nested_sdfg" || node.kind === "library") return node.schedule;
	return null;
}
// electron/engine/analysis/accesses.ts
var AccessIndex = class {
	bySdfg = /* @__PURE__ */ new Map();
	embeddings = /* @__PURE__ */ new Map();
	constructor(file) {
		for (const sdfg of file.sdfgs) {
			const table = /* @__PURE__ */ new Map();
			this.bySdfg.set(sdfg, table);
			forEachState(sdfg.body, (state) => {
				for (const node of state.nodes) {
					if (node.kind !== "access") continue;
					const site = {
						state,
						node
					};
					push(table, node.data, site);
					let dot = node.data.indexOf(".");
					while (dot > 0) {
						push(table, node.data.slice(0, dot), site);
						dot = node.data.indexOf(".", dot + 1);
					}
				}
			});
		}
		for (const sdfg of file.sdfgs) this.embeddingOf(sdfg);
	}
	of(sdfg, name) {
		return this.bySdfg.get(sdfg)?.get(name) ?? [];
	}
	embeddingOf(sdfg) {
		const hit = this.embeddings.get(sdfg);
		if (hit) return hit;
		let result = {
			scope: null,
			schedule: null
		};
		if (sdfg.parent) {
			const outer = this.embeddingOf(sdfg.parent.sdfg);
			const inner = scopeChain(sdfg.parent.state, sdfg.parent.node)[0];
			result = inner ? {
				scope: {
					map: scopeLabel(inner),
					state: sdfg.parent.state.label,
					sdfg: sdfg.parent.sdfg.name
				},
				schedule: scheduleOf(inner)
			} : outer;
		}
		this.embeddings.set(sdfg, result);
		return result;
	}
};
function push(table, key, site) {
	const list = table.get(key);
	if (list) list.push(site);
	else table.set(key, [site]);
}
// electron/engine/analysis/target.ts
const GPU_SCHEDULES = /* @__PURE__ */ new Set([
	"GPU_Device",
	"GPU_ThreadBlock",
	"GPU_ThreadBlock_Dynamic",
	"GPU_Persistent",
	"GPU_Default"
]);
const isGpuStorage = (storage) => storage.startsWith("GPU_");
const isGpuSchedule = (schedule) => GPU_SCHEDULES.has(schedule);
function detectTarget(file, override) {
	const evidence = findGpuEvidence(file);
	if (override) return {
		target: override,
		reason: `--target ${override} (${evidence ? `detected gpu: ${evidence}` : "detected cpu: no GPU storage or schedule"})`
	};
	return evidence ? {
		target: "gpu",
		reason: evidence
	} : {
		target: "cpu",
		reason: "no GPU storage or GPU schedule anywhere in the program"
	};
}
function findGpuEvidence(file) {
	for (const sdfg of file.sdfgs) for (const desc of sdfg.arrays.values()) if (isGpuStorage(desc.storage)) return `container '${desc.name}' of SDFG '${sdfg.name}' has storage ${desc.storage}`;
	let found = null;
	for (const sdfg of file.sdfgs) {
		forEachState(sdfg.body, (state) => {
			if (found) return;
			for (const n of state.nodes) {
				const schedule = n.kind === "map_entry" ? n.map.schedule : n.kind === "consume_entry" || n.kind === "library" || n.kind === "nested_sdfg" ? n.schedule : null;
				if (schedule && isGpuSchedule(schedule)) {
					found = `${n.kind === "map_entry" ? `map '${n.map.label}'` : `${n.kind.replace("_", " ")} '${n.label}'`} in state '${state.label}' of SDFG '${sdfg.name}' has schedule ${schedule}`;
					return;
				}
			}
		});
		if (found) return found;
	}
	return null;
}
/** Storages that never go through an allocator call (stack, registers, shared memory). */
function isStackStorage(storage) {
	return storage === "Register" || storage === "GPU_Shared" || storage === "SVE_Register" || storage === "FPGA_Registers";
}
function effectiveStorage(desc, sites, embedding, constantBytes) {
	if (desc.storage !== "Default") return desc.storage;
	let innermost;
	let topLevel = sites.length === 0;
	for (const { state, node } of sites) {
		if (node.scopeEntry === null) {
			topLevel = true;
			break;
		}
		const entry = state.nodes[node.scopeEntry];
		innermost ??= entry ? scheduleOf(entry) : null;
	}
	if (topLevel) {
		if (embedding.schedule === null) return "CPU_Heap";
		return resolveInScope(embedding.schedule, false, constantBytes);
	}
	return resolveInScope(innermost ?? "Default", true, constantBytes);
}
function resolveInScope(schedule, directChild, constantBytes) {
	if (schedule === "GPU_Device" && directChild) return "GPU_Shared";
	if (isGpuSchedule(schedule)) return "Register";
	return constantBytes !== null && constantBytes <= 65536n ? "Register" : "CPU_Heap";
}
// electron/engine/analysis/allocation.ts
const ALIASES = /* @__PURE__ */ new Set([
	"ArrayView",
	"View",
	"ArrayReference",
	"Reference",
	"StructureView",
	"StructureReference",
	"ContainerView",
	"ContainerArrayReference"
]);
const none = (why) => ({
	site: {
		kind: "none",
		why
	},
	executionsPerCall: 0n
});
/** Whether a site makes an allocator call on every execution (what SCOPED mode pays per call). */
function allocatesPerCall(site) {
	return site.kind === "sdfg" || site.kind === "state" || site.kind === "scope";
}
function allocationOf(x, order, counter) {
	const { desc, sdfg } = x;
	if (x.memberOf !== null) return none(`member of structure '${x.memberOf}': allocated with it`);
	if (ALIASES.has(desc.type)) return none(`${desc.type}: an alias of another container, allocates nothing`);
	if (sdfg.constants.has(desc.name)) return none("constant (constants_prop): compiled into the program, never allocated");
	if (desc.lifetime === "Persistent") return {
		site: { kind: "init" },
		executionsPerCall: 0n
	};
	if (desc.lifetime === "External") return {
		site: { kind: "external" },
		executionsPerCall: 0n
	};
	if (desc.type === "Stream") return none("Stream: a queue object, not a plain buffer (not modelled)");
	if (!desc.arrayLike && desc.type !== "Scalar") return none(`${desc.type}: allocation not modelled`);
	if (x.sites.length === 0 && !x.reads) return none("never accessed: DaCe skips its allocation");
	if (isStackStorage(x.effectiveStorage)) return none(`stack storage (${x.effectiveStorage})`);
	if (desc.type === "Scalar" && !isGpuStorage(x.effectiveStorage)) return none("Scalar: a local variable on the stack");
	if (desc.lifetime === "Global") return {
		site: {
			kind: "sdfg",
			sdfg: 0
		},
		executionsPerCall: 1n
	};
	const invocations = order.invocations.get(sdfg) ?? null;
	const states = new Set(x.sites.map((s) => s.state));
	if (desc.lifetime === "SDFG" || states.size !== 1 || x.reads) return {
		site: {
			kind: "sdfg",
			sdfg: sdfg.sdfgIndex
		},
		executionsPerCall: invocations
	};
	const state = x.sites[0].state;
	const place = order.places.get(state);
	const stateExecutions = place ? place.executions : null;
	const stateSite = {
		site: {
			kind: "state",
			sdfg: sdfg.sdfgIndex,
			stateJsonPath: state.jsonPath
		},
		executionsPerCall: stateExecutions
	};
	if (desc.lifetime === "State") return stateSite;
	const entry = commonScope(x.sites, state, x.effectiveStorage);
	if (entry === null) return stateSite;
	const iterations = counter.scopeIterations(sdfg, state, entry);
	return {
		site: {
			kind: "scope",
			sdfg: sdfg.sdfgIndex,
			stateJsonPath: state.jsonPath,
			mapEntryId: entry
		},
		executionsPerCall: stateExecutions === null || iterations === null ? null : stateExecutions * iterations
	};
}
/**
* Innermost scope that encloses every access, moved up out of GPU kernels for storages that the host must
* allocate (DaCe moves such allocations "up the scope tree"). Null = the state's top level.
*/
function commonScope(sites, state, storage) {
	let common = null;
	for (const { node } of sites) {
		if (node.scopeEntry === null) return null;
		const chain = [node.scopeEntry, ...scopeChain(state, state.nodes[node.scopeEntry]).map((n) => n.id)];
		if (common === null) common = chain;
		else {
			const keep = new Set(chain);
			common = common.filter((id) => keep.has(id));
		}
		if (common.length === 0) return null;
	}
	if (!common || common.length === 0) return null;
	if (isStackStorage(storage) || storage === "GPU_Shared") return common[0];
	let outermostGpu = -1;
	for (let i = 0; i < common.length; i++) {
		const entry = state.nodes[common[i]];
		const schedule = entry ? scheduleOf(entry) : null;
		if (schedule && isGpuSchedule(schedule)) outermostGpu = i;
	}
	if (outermostGpu < 0) return common[0];
	return outermostGpu + 1 < common.length ? common[outermostGpu + 1] : null;
}
// electron/engine/analysis/eligibility.ts
const list = (names) => names.map((n) => `'${n}'`).join(", ");
/** The first rule that keeps a transient out of both modes, or null. */
function blockingBoth(x) {
	const { desc, sdfg } = x;
	if (x.memberOf !== null) return `member of structure '${x.memberOf}': allocated together with the structure`;
	if (sdfg.constants.has(desc.name)) return `in constants_prop of SDFG '${sdfg.name}' (gt4py rule 1: a compile-time constant)`;
	if (desc.lifetime === "Persistent") return "already Persistent in the file: allocated once in init, in every mode";
	if (desc.lifetime === "External") return "already External in the file: provided by the caller's workspace, in every mode";
	if (desc.type !== "Array" && desc.type !== "Scalar") return `type ${desc.type} is not exactly Array or Scalar (gt4py rule 2: views, references, streams and structures are left alone)`;
	if (desc.storage === "Register") return "storage Register (gt4py rule 3: lives on the stack)";
	if (isStackStorage(x.effectiveStorage)) return `Default storage resolves to ${x.effectiveStorage} where it is used (stack or shared memory, nothing to hoist)`;
	if (x.sites.length === 0) return "never accessed (no AccessNode): DaCe allocates nothing for it";
	for (const { state, node } of x.sites) {
		if (node.scopeEntry === null) continue;
		const entry = state.nodes[node.scopeEntry];
		return `accessed inside ${entry ? `map '${scopeLabel(entry)}'` : `scope #${node.scopeEntry}`} in state '${state.label}' (gt4py rule 5: one buffer would be shared by all iterations and threads)`;
	}
	if (x.embedding.scope) {
		const s = x.embedding.scope;
		return `its nested SDFG '${sdfg.name}' runs inside map '${s.map}' in state '${s.state}' of SDFG '${s.sdfg}' (safety rule: one buffer would be shared by all iterations and threads)`;
	}
	if (x.footprint.problem) return x.footprint.problem;
	if (desc.dtype.bytes === null) return `element size of dtype is unknown: the buffer cannot be sized`;
	const bound = x.footprint.sizeSymbols.filter((s) => x.definedInSdfg.has(s));
	if (bound.length) return `total_size uses ${list(bound)}, assigned inside SDFG '${sdfg.name}' (gt4py rule 6: not a free symbol of its SDFG)`;
	const unmapped = x.footprint.untranslated.filter((s) => !x.definedInSdfg.has(s));
	if (sdfg.parent && unmapped.length) return `total_size uses inner symbol ${list(unmapped)} of nested SDFG '${sdfg.name}' that is not mapped from the outer SDFG (it cannot be sized from the caller's symbols)`;
	return null;
}
function eligibility(x) {
	const both = blockingBoth(x);
	if (both) return {
		PERSISTENT: false,
		EXTERNAL: false,
		reason: both
	};
	if (x.desc.type === "Scalar" && !isGpuStorage(x.effectiveStorage)) return {
		PERSISTENT: true,
		EXTERNAL: false,
		reason: "EXTERNAL only: a Scalar on the CPU (DaCe cannot compile External CPU scalars)"
	};
	return {
		PERSISTENT: true,
		EXTERNAL: true,
		reason: null
	};
}
// electron/engine/analysis/executions.ts
function floorDiv(a, b) {
	const q = a / b;
	return a % b !== 0n && a < 0n !== b < 0n ? q - 1n : q;
}
function ceilDiv(a, b) {
	return -floorDiv(-a, b);
}
/** Removes redundant outer parentheses: `((i < N))` → `i < N`. */
function stripParens(text) {
	let s = text.trim();
	for (;;) {
		if (!s.startsWith("(") || !s.endsWith(")")) return s;
		let depth = 0;
		for (let i = 0; i < s.length; i++) {
			if (s[i] === "(") depth++;
			else if (s[i] === ")") depth--;
			if (depth === 0 && i < s.length - 1) return s;
		}
		s = s.slice(1, -1).trim();
	}
}
/** Splits `lhs OP rhs` at the one top-level comparison; null for anything more complex. */
function splitComparison(text) {
	const s = stripParens(text);
	if (/\b(and|or|not)\b/.test(s)) return null;
	let depth = 0;
	let found = null;
	for (let i = 0; i < s.length; i++) {
		const ch = s[i];
		if (ch === "(" || ch === "[") depth++;
		else if (ch === ")" || ch === "]") depth--;
		else if (depth === 0 && (ch === "<" || ch === ">")) {
			if (s[i + 1] === ch) return null;
			if (found) return null;
			found = {
				at: i,
				op: s[i + 1] === "=" ? `${ch}=` : ch
			};
			if (found.op.length === 2) i++;
		} else if (depth === 0 && (ch === "=" || ch === "!") && s[i + 1] === "=") return null;
	}
	if (!found) return null;
	return {
		lhs: s.slice(0, found.at).trim(),
		op: found.op,
		rhs: s.slice(found.at + found.op.length).trim()
	};
}
const FLIP = {
	"<": ">",
	">": "<",
	"<=": ">=",
	">=": "<="
};
/** Recognises the counted-loop form; null when the loop is anything else (while, data-dependent…). */
function loopForm(loop) {
	const v = loop.loopVariable;
	if (!v || !loop.init || !loop.condition || !loop.update) return null;
	const init = /^\s*([A-Za-z_]\w*)\s*=\s*([^=][\s\S]*)$/.exec(loop.init);
	if (!init || init[1] !== v) return null;
	const cmp = splitComparison(loop.condition);
	if (!cmp) return null;
	let op = cmp.op;
	let bound = cmp.rhs;
	if (stripParens(cmp.lhs) !== v) {
		if (stripParens(cmp.rhs) !== v) return null;
		op = FLIP[op];
		bound = cmp.lhs;
	}
	const step = updateStep(loop.update, v);
	if (step === null) return null;
	return {
		start: init[2].trim(),
		op,
		bound,
		step
	};
}
function updateStep(update, v) {
	const aug = /^\s*([A-Za-z_]\w*)\s*([+-])=\s*([\s\S]+)$/.exec(update);
	if (aug) return aug[1] === v ? aug[2] === "-" ? `-(${aug[3].trim()})` : aug[3].trim() : null;
	const assign = /^\s*([A-Za-z_]\w*)\s*=\s*([^=][\s\S]*)$/.exec(update);
	if (!assign || assign[1] !== v) return null;
	const rhs = stripParens(assign[2]);
	const lead = new RegExp(`^${v}\\s*([+-])\\s*([\\s\\S]+)$`).exec(rhs);
	if (lead) return lead[1] === "-" ? `-(${lead[2].trim()})` : lead[2].trim();
	const trail = new RegExp(`^([\\s\\S]+?)\\s*\\+\\s*${v}$`).exec(rhs);
	if (trail) return trail[1].trim();
	return null;
}
function tripCount(a, op, b, c, inverted) {
	let n;
	if (c > 0n && op === "<") n = b > a ? ceilDiv(b - a, c) : 0n;
	else if (c > 0n && op === "<=") n = b >= a ? (b - a) / c + 1n : 0n;
	else if (c < 0n && op === ">") n = a > b ? ceilDiv(a - b, -c) : 0n;
	else if (c < 0n && op === ">=") n = a >= b ? (a - b) / -c + 1n : 0n;
	else return null;
	return inverted && n < 1n ? 1n : n;
}
var ExecutionCounter = class {
	symbols;
	constructor(symbols) {
		this.symbols = symbols;
	}
	valueOfCode(sdfg, code) {
		try {
			const root = this.symbols.toRoot(sdfg, this.symbols.exprs.py(code));
			return root.expr ? this.symbols.valueOf(root.expr) : null;
		} catch {
			return null;
		}
	}
	loopTrips(loop, sdfg) {
		const form = loopForm(loop);
		if (!form) return null;
		const a = this.valueOfCode(sdfg, form.start);
		const b = this.valueOfCode(sdfg, form.bound);
		const c = this.valueOfCode(sdfg, form.step);
		if (a === null || b === null || c === null) return null;
		return tripCount(a, form.op, b, c, loop.inverted);
	}
	rangeElements(sdfg, dim) {
		const start = this.symbols.valueOfField(sdfg, dim.start);
		const end = this.symbols.valueOfField(sdfg, dim.end);
		const step = this.symbols.valueOfField(sdfg, dim.step);
		const tile = this.symbols.valueOfField(sdfg, dim.tile);
		if (start === null || end === null || step === null || tile === null || step === 0n) return null;
		const n = floorDiv(end - start + step, step);
		return n > 0n ? n * tile : 0n;
	}
	/** Iterations of the scope opened by `entryId` times those of every enclosing scope. */
	scopeIterations(sdfg, state, entryId) {
		let total = 1n;
		let id = entryId;
		let guard = 0;
		while (id !== null && guard++ <= state.nodes.length) {
			const entry = state.nodes[id];
			if (!entry) return null;
			if (entry.kind !== "map_entry") return null;
			for (const dim of entry.map.range) {
				const n = this.rangeElements(sdfg, dim);
				if (n === null) return null;
				total *= n;
			}
			id = entry.scopeEntry;
		}
		return total;
	}
};
// electron/engine/analysis/layout-dace.ts
/**
* DaCe's own External workspace layout (dace-memory-abi.md §2.4): per storage, every External descriptor in
* `arrays_recursive()` order, `total_size × dtype bytes` each, back to back, no padding or alignment.
* The caller passes the entries already in that order.
*/
function daceLayouts(entries) {
	const groups = /* @__PURE__ */ new Map();
	for (const e of entries) {
		const g = groups.get(e.storage);
		if (g) g.push(e);
		else groups.set(e.storage, [e]);
	}
	const out = {};
	for (const [storage, group] of groups) out[storage] = daceLayout(group);
	return out;
}
function daceLayout(group) {
	const offsets = /* @__PURE__ */ new Map();
	let numeric = 0n;
	let symbolic = null;
	const text = [];
	for (const e of group) {
		offsets.set(e.id, symbolic === null && text.length === 0 ? numeric : offsetText(numeric, symbolic, text));
		if (e.bytes !== null) numeric += e.bytes;
		else if (e.bytesExpr) symbolic = symbolic ? addExpr(symbolic, e.bytesExpr) : e.bytesExpr;
		else text.push(`(${e.bytesText})`);
	}
	const complete = symbolic === null && text.length === 0;
	return {
		bytes: complete ? numeric : null,
		bytesExpr: complete ? String(numeric) : offsetText(numeric, symbolic, text),
		offsets,
		order: group.map((e) => e.id)
	};
}
function offsetText(numeric, symbolic, text) {
	const sum = symbolic ? numeric ? addExpr(symbolic, intExpr(numeric)) : symbolic : null;
	const parts = [sum ? render(sum) : numeric ? String(numeric) : "", ...text].filter((p) => p !== "");
	return parts.length ? parts.join(" + ") : "0";
}
// electron/engine/analysis/layout-packed.ts
const alignUp = (v, alignment) => (v + alignment - 1n) / alignment * alignment;
/** 256 B for GPU memory (what cudaMalloc guarantees), 64 B for host memory (DaCe's aligned new). */
function alignmentFor(storage) {
	return storage.startsWith("GPU_") ? 256 : 64;
}
function packLayout(items, alignment) {
	const align = BigInt(alignment);
	const n = items.length;
	const sizes = items.map((it) => alignUp(it.bytes, align));
	const alignedSum = sizes.reduce((a, b) => a + b, 0n);
	const lowerBound = peakOverlap(items);
	const byStart = [...items.keys()].sort((a, b) => items[a].first - items[b].first || items[a].last - items[b].last);
	const position = new Int32Array(n);
	byStart.forEach((item, pos) => position[item] = pos);
	const starts = byStart.map((i) => items[i].first);
	const tree = new MaxTree(n);
	const order = [...items.keys()].sort((a, b) => {
		const d = sizes[b] - sizes[a];
		if (d !== 0n) return d > 0n ? 1 : -1;
		return items[a].first - items[b].first || (items[a].id < items[b].id ? -1 : items[a].id > items[b].id ? 1 : 0);
	});
	const offsets = new Array(n).fill(0n);
	let total = 0n;
	const blocks = [];
	for (const i of order) {
		const item = items[i];
		const size = sizes[i];
		if (size > 0n) {
			blocks.length = 0;
			const hi = upperBound(starts, item.last) - 1;
			tree.report(hi, item.first, (pos) => {
				const j = byStart[pos];
				blocks.push([offsets[j], offsets[j] + sizes[j]]);
			});
			blocks.sort((a, b) => a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0);
			let candidate = 0n;
			for (const [start, end] of blocks) {
				if (start - candidate >= size) break;
				if (end > candidate) candidate = end;
			}
			offsets[i] = candidate;
			if (candidate + size > total) total = candidate + size;
		}
		tree.set(position[i], item.last);
	}
	if (total > alignedSum) {
		let at = 0n;
		for (let i = 0; i < n; i++) {
			offsets[i] = at;
			at += sizes[i];
		}
		total = alignedSum;
	}
	const map = /* @__PURE__ */ new Map();
	items.forEach((it, i) => map.set(it.id, offsets[i]));
	return {
		bytes: total,
		alignment,
		offsets: map,
		lowerBound,
		alignedSum
	};
}
/** Peak of Σ bytes over steps: no layout, aligned or not, can be smaller. */
function peakOverlap(items) {
	const events = [];
	for (const it of items) {
		if (it.bytes === 0n) continue;
		events.push([it.first, it.bytes], [it.last + 1, -it.bytes]);
	}
	events.sort((a, b) => a[0] - b[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
	let live = 0n;
	let peak = 0n;
	for (const [, delta] of events) {
		live += delta;
		if (live > peak) peak = live;
	}
	return peak;
}
function upperBound(sorted, value) {
	let lo = 0;
	let hi = sorted.length;
	while (lo < hi) {
		const mid = lo + hi >>> 1;
		if (sorted[mid] <= value) lo = mid + 1;
		else hi = mid;
	}
	return lo;
}
/** Max over positions; positions without a placed item hold -1. */
var MaxTree = class {
	size;
	max;
	constructor(n) {
		let size = 1;
		while (size < Math.max(1, n)) size <<= 1;
		this.size = size;
		this.max = new Int32Array(2 * size).fill(-1);
	}
	set(pos, value) {
		let i = pos + this.size;
		this.max[i] = value;
		for (i >>= 1; i >= 1; i >>= 1) this.max[i] = Math.max(this.max[2 * i], this.max[2 * i + 1]);
	}
	/** Calls `visit` for every position in [0, hi] whose value is ≥ min. */
	report(hi, min, visit) {
		if (hi < 0) return;
		const stack = [[
			1,
			0,
			this.size - 1
		]];
		while (stack.length) {
			const [node, lo, hiNode] = stack.pop();
			if (lo > hi || this.max[node] < min) continue;
			if (node >= this.size) {
				visit(node - this.size);
				continue;
			}
			const mid = lo + hiNode >>> 1;
			stack.push([
				2 * node + 1,
				mid + 1,
				hiNode
			], [
				2 * node,
				lo,
				mid
			]);
		}
	}
};
// electron/engine/analysis/linearize.ts
const mul = (a, b) => a === null || b === null ? null : a * b;
function linearize(file, counter) {
	const order = {
		steps: [],
		places: /* @__PURE__ */ new Map(),
		codeUses: [],
		loops: [],
		invocations: /* @__PURE__ */ new Map()
	};
	const steps = order.steps;
	const addCode = (sdfg, code, first, last, interstate) => {
		if (code === null) return;
		const trimmed = code.trim();
		if (!trimmed || trimmed === "1" || trimmed === "True" || trimmed === "(1)") return;
		order.codeUses.push({
			sdfg,
			code: trimmed,
			first,
			last,
			interstate
		});
	};
	const linearizeSdfg = (sdfg, path, invocations) => {
		order.invocations.set(sdfg, invocations);
		return linearizeGraph(sdfg.body, sdfg, path, invocations);
	};
	const linearizeBlock = (b, sdfg, path, mult) => {
		switch (b.kind) {
			case "state": {
				const step = steps.length;
				steps.push({
					index: step,
					label: [...path, b.label].join("/"),
					sdfg: sdfg.sdfgIndex,
					jsonPath: b.jsonPath
				});
				const place = {
					state: b,
					sdfg,
					step,
					spanEnd: step,
					executions: mult
				};
				order.places.set(b, place);
				for (const n of b.nodes) {
					if (n.kind !== "nested_sdfg" || !n.sdfg) continue;
					const calls = mul(mult, counter.scopeIterations(sdfg, b, n.scopeEntry));
					linearizeSdfg(n.sdfg, [
						...path,
						b.label,
						n.sdfg.name
					], calls);
				}
				place.spanEnd = steps.length - 1;
				return {
					first: step,
					last: place.spanEnd
				};
			}
			case "region": return linearizeGraph(b, sdfg, [...path, b.label], mult);
			case "loop": return linearizeLoop(b, sdfg, path, mult);
			case "conditional": {
				const first = steps.length;
				for (const br of b.branches) linearizeGraph(br.body, sdfg, [
					...path,
					b.label,
					br.body.label
				], mult);
				const span = {
					first,
					last: steps.length - 1
				};
				for (const br of b.branches) addCode(sdfg, br.condition, anchorStart(span), anchorEnd(span), false);
				return span;
			}
			default: return {
				first: steps.length,
				last: steps.length - 1
			};
		}
	};
	const linearizeLoop = (b, sdfg, path, mult) => {
		const trips = counter.loopTrips(b, sdfg);
		const span = linearizeGraph(b, sdfg, [...path, b.label], mul(mult, trips));
		if (span.last >= span.first) order.loops.push({
			first: span.first,
			last: span.last,
			label: [...path, b.label].join("/"),
			kind: "loop-region",
			region: b
		});
		for (const code of [
			b.init,
			b.condition,
			b.update
		]) addCode(sdfg, code, anchorStart(span), anchorEnd(span), false);
		return span;
	};
	const linearizeGraph = (g, sdfg, path, mult) => {
		const first = steps.length;
		const cyclic = stronglyConnected(g);
		const spans = new Array(g.blocks.length);
		for (const idx of blockOrder(g)) spans[idx] = linearizeBlock(g.blocks[idx], sdfg, path, cyclic.component[idx] >= 0 ? null : mult);
		for (const members of cyclic.cycles) {
			let lo = Infinity;
			let hi = -Infinity;
			for (const m of members) {
				const s = spans[m];
				if (s.last >= s.first) {
					lo = Math.min(lo, s.first);
					hi = Math.max(hi, s.last);
				}
			}
			if (lo <= hi) order.loops.push({
				first: lo,
				last: hi,
				label: [...path, `cycle@${g.blocks[members[0]].label}`].join("/"),
				kind: "cycle",
				region: null
			});
		}
		for (const e of g.edges) {
			const src = spans[e.src];
			const dst = spans[e.dst];
			if (!src || !dst) continue;
			const codes = [e.condition, ...e.assignments.map(([, rhs]) => rhs)];
			for (const code of codes) {
				addCode(sdfg, code, anchorEnd(src), anchorEnd(src), true);
				addCode(sdfg, code, anchorStart(dst), anchorStart(dst), true);
			}
		}
		return {
			first,
			last: steps.length - 1
		};
	};
	linearizeSdfg(file.root, [file.root.name], 1n);
	const lastStep = Math.max(0, steps.length - 1);
	for (const use of order.codeUses) {
		use.first = Math.min(Math.max(use.first, 0), lastStep);
		use.last = Math.min(Math.max(use.last, use.first), lastStep);
	}
	return order;
}
/** The step where a span's control flow enters (the next step when the span is empty). */
const anchorStart = (s) => s.first;
/** The step where a span's control flow leaves (the previous step when the span is empty). */
const anchorEnd = (s) => s.last >= s.first ? s.last : s.first - 1;
/** Reverse post-order from the start block, then unreachable blocks in file order. */
function blockOrder(g) {
	const n = g.blocks.length;
	const succ = Array.from({ length: n }, () => []);
	for (const e of g.edges) if (e.src >= 0 && e.src < n && e.dst >= 0 && e.dst < n) succ[e.src].push(e.dst);
	for (const list of succ) list.reverse();
	const visited = new Uint8Array(n);
	const out = [];
	const dfsFrom = (root) => {
		const post = [];
		const stack = [[root, 0]];
		visited[root] = 1;
		while (stack.length) {
			const top = stack[stack.length - 1];
			const next = succ[top[0]][top[1]++];
			if (next === void 0) {
				post.push(top[0]);
				stack.pop();
			} else if (!visited[next]) {
				visited[next] = 1;
				stack.push([next, 0]);
			}
		}
		for (let i = post.length - 1; i >= 0; i--) out.push(post[i]);
	};
	if (g.start !== null && g.start >= 0 && g.start < n) dfsFrom(g.start);
	for (let i = 0; i < n; i++) if (!visited[i]) dfsFrom(i);
	return out;
}
/** Tarjan's SCCs; `component[i]` is the cycle index of block i, or -1 when i is on no cycle. */
function stronglyConnected(g) {
	const n = g.blocks.length;
	const succ = Array.from({ length: n }, () => []);
	const selfLoop = new Uint8Array(n);
	for (const e of g.edges) {
		if (e.src < 0 || e.src >= n || e.dst < 0 || e.dst >= n) continue;
		succ[e.src].push(e.dst);
		if (e.src === e.dst) selfLoop[e.src] = 1;
	}
	const index = new Int32Array(n).fill(-1);
	const low = new Int32Array(n);
	const onStack = new Uint8Array(n);
	const stack = [];
	const component = new Array(n).fill(-1);
	const cycles = [];
	let counter = 0;
	for (let root = 0; root < n; root++) {
		if (index[root] !== -1) continue;
		const work = [[root, 0]];
		index[root] = low[root] = counter++;
		stack.push(root);
		onStack[root] = 1;
		while (work.length) {
			const frame = work[work.length - 1];
			const v = frame[0];
			const w = succ[v][frame[1]++];
			if (w !== void 0) {
				if (index[w] === -1) {
					index[w] = low[w] = counter++;
					stack.push(w);
					onStack[w] = 1;
					work.push([w, 0]);
				} else if (onStack[w]) low[v] = Math.min(low[v], index[w]);
				continue;
			}
			work.pop();
			if (work.length) {
				const parent = work[work.length - 1][0];
				low[parent] = Math.min(low[parent], low[v]);
			}
			if (low[v] === index[v]) {
				const members = [];
				let x;
				do {
					x = stack.pop();
					onStack[x] = 0;
					members.push(x);
				} while (x !== v);
				if (members.length > 1 || selfLoop[v]) {
					for (const m of members) component[m] = cycles.length;
					cycles.push(members.sort((a, b) => a - b));
				}
			}
		}
	}
	return {
		component,
		cycles
	};
}
// electron/engine/analysis/liveness.ts
/** Containers read by control-flow code, per SDFG and (top-level) container name. */
function controlFlowReads(order, exprs) {
	const out = /* @__PURE__ */ new Map();
	for (const use of order.codeUses) {
		const arrays = use.sdfg.arrays;
		if (arrays.size === 0) continue;
		for (const name of namesInCode(use.code, exprs)) {
			const top = name.split(".")[0];
			if (!arrays.has(top)) continue;
			let table = out.get(use.sdfg);
			if (!table) out.set(use.sdfg, table = /* @__PURE__ */ new Map());
			let reads = table.get(top);
			if (!reads) table.set(top, reads = {
				intervals: [],
				interstate: false
			});
			reads.intervals.push({
				first: use.first,
				last: use.last
			});
			reads.interstate ||= use.interstate;
		}
	}
	return out;
}
function namesInCode(code, exprs) {
	try {
		return exprs.namesOf(exprs.py(code));
	} catch {
		return code.match(/[A-Za-z_][A-Za-z0-9_.]*/g) ?? [];
	}
}
/** Union of the spans of all loops around each step: widening a range is then two array lookups. */
var LoopCover = class {
	order;
	lo;
	hi;
	/** Loops around each step, built on the first widening with exceptions (most programs never need it). */
	around = null;
	constructor(order) {
		this.order = order;
		const n = order.steps.length;
		this.lo = new Int32Array(n);
		this.hi = new Int32Array(n);
		for (let s = 0; s < n; s++) {
			this.lo[s] = s;
			this.hi[s] = s;
		}
		const loops = [...order.loops].sort((a, b) => b.last - b.first - (a.last - a.first));
		for (const loop of loops) for (let s = loop.first; s <= loop.last; s++) {
			if (this.lo[s] > loop.first) this.lo[s] = loop.first;
			if (this.hi[s] < loop.last) this.hi[s] = loop.last;
		}
	}
	widen(range, except) {
		if (!except || except.size === 0) return {
			first: Math.min(range.first, this.lo[range.first], this.lo[range.last]),
			last: Math.max(range.last, this.hi[range.first], this.hi[range.last])
		};
		const around = this.loopsAround();
		let { first, last } = range;
		for (const loop of [...around[range.first], ...around[range.last]]) {
			if (except.has(loop)) continue;
			if (loop.first < first) first = loop.first;
			if (loop.last > last) last = loop.last;
		}
		return {
			first,
			last
		};
	}
	loopsAround() {
		if (!this.around) {
			const around = Array.from({ length: this.order.steps.length }, () => []);
			for (const loop of this.order.loops) for (let s = loop.first; s <= loop.last; s++) around[s].push(loop);
			this.around = around;
		}
		return this.around;
	}
};
function liveRange(sites, reads, order, cover, writeFirst) {
	const intervals = [];
	for (const site of sites) {
		const place = order.places.get(site.state);
		if (place) intervals.push({
			first: place.step,
			last: place.spanEnd
		});
	}
	if (reads) intervals.push(...reads.intervals);
	if (intervals.length === 0 || order.steps.length === 0) return null;
	let first = Infinity;
	let last = -Infinity;
	for (const iv of intervals) {
		const w = cover.widen(iv, writeFirst);
		if (w.first < first) first = w.first;
		if (w.last > last) last = w.last;
	}
	return {
		first,
		last
	};
}
// electron/engine/analysis/plan.ts
/**
* What each memory mode costs per call for the chosen target (dace-memory-abi.md §3.1):
* - SCOPED: every heap site (sdfg/state/scope) allocates and frees once per execution;
* - PERSISTENT: PERSISTENT-eligible transients move to init;
* - POOL: on GPU, transient GPU_Global Arrays allocate from the stream-ordered pool (still per call);
*   on CPU it is exactly SCOPED;
* - EXTERNAL: EXTERNAL-eligible transients live in the caller's workspace (packed layout per storage).
* Transients the file already makes Persistent / External keep that lifetime in every mode.
*/
function sumOrNull(values) {
	let total = 0n;
	for (const v of values) {
		if (v === null) return null;
		total += v;
	}
	return total;
}
function perCallCost(allocating) {
	const allocs = sumOrNull(allocating.map((t) => t.executionsPerCall));
	return {
		allocs,
		frees: allocs,
		bytes: sumOrNull(allocating.map((t) => t.bytes === null || t.executionsPerCall === null ? null : t.bytes * t.executionsPerCall))
	};
}
function initCost(inInit) {
	return {
		allocs: inInit.length,
		bytes: sumOrNull(inInit.map((t) => t.bytes))
	};
}
function planModes(transients, target, packed) {
	const heap = transients.filter((t) => allocatesPerCall(t.allocation));
	const fileInit = transients.filter((t) => t.allocation.kind === "init");
	const fileExternal = transients.filter((t) => t.allocation.kind === "external");
	const commonNotes = [];
	if (fileExternal.length) commonNotes.push(`${fileExternal.length} transient(s) are already External in the file: every mode needs a caller workspace for them`);
	const plan = (stillAllocating, inInit, notes) => ({
		perCall: perCallCost(stillAllocating),
		init: initCost(inInit),
		workspace: {},
		stillAllocating: stillAllocating.map((t) => t.id),
		pooled: 0,
		notes: [...notes, ...commonNotes]
	});
	const scoped = plan(heap, fileInit, []);
	const persistentMoves = heap.filter((t) => t.eligible.PERSISTENT);
	const persistent = plan(heap.filter((t) => !t.eligible.PERSISTENT), [...fileInit, ...persistentMoves], persistentMoves.length ? [`${persistentMoves.length} transient(s) move to init; they are sized with the init-time symbol values`] : []);
	const persistentLeft = heap.length - persistentMoves.length;
	if (persistentLeft > 0) persistent.notes.unshift(`partially persistent: ${persistentLeft} transient(s) still allocate per call`);
	let pool;
	if (target === "gpu") {
		const pooled = heap.filter((t) => t.type === "Array" && t.effectiveStorage === "GPU_Global");
		pool = plan(heap, fileInit, [`${pooled.length} GPU_Global transient(s) allocate from the stream-ordered pool (cudaMallocAsync/cudaFreeAsync); the pool keeps memory reserved between calls`]);
		pool.pooled = pooled.length;
	} else pool = plan(heap, fileInit, ["CPU target: POOL changes nothing and is identical to SCOPED"]);
	const externalMoves = heap.filter((t) => t.eligible.EXTERNAL);
	const left = heap.filter((t) => !t.eligible.EXTERNAL);
	const external = plan(left, fileInit, left.length ? [`partially external: ${left.length} transients still allocate per call`] : []);
	const storages = new Set([...externalMoves, ...fileExternal].map((t) => t.effectiveStorage));
	for (const s of [...storages].sort()) external.workspace[s] = packed[s]?.bytes ?? null;
	return {
		SCOPED: scoped,
		PERSISTENT: persistent,
		POOL: pool,
		EXTERNAL: external
	};
}
// electron/engine/analysis/write-first.ts
/** Coordinate-compressed coverage checks beyond this many cells give up (stay conservative). */
const MAX_COVERAGE_CELLS = 1e5;
var WriteFirstLoops = class {
	symbols;
	userSymbols;
	spanOfRegion = /* @__PURE__ */ new Map();
	enclosing = /* @__PURE__ */ new Map();
	constructor(order, symbols, userSymbols) {
		this.symbols = symbols;
		this.userSymbols = userSymbols;
		for (const span of order.loops) if (span.region) this.spanOfRegion.set(span.region, span);
	}
	/**
	* The loops (of the transient's own SDFG) over which `name` need not be widened. Loops of outer SDFGs
	* around a nested SDFG call, and state-machine cycles, are never in the set.
	*/
	loopsWithoutWidening(sdfg, name, desc, sites) {
		const out = /* @__PURE__ */ new Set();
		if (desc.type !== "Array" && desc.type !== "Scalar") return out;
		if (desc.offset.some((o) => o.trim() !== "0")) return out;
		if (sites.some((s) => s.node.data !== name)) return out;
		const loops = /* @__PURE__ */ new Set();
		const table = this.enclosingLoops(sdfg);
		for (const site of sites) for (const l of table.get(site.state) ?? []) loops.add(l);
		for (const loop of loops) {
			const span = this.spanOfRegion.get(loop);
			if (span && this.isWriteFirst(loop, sdfg, name, desc)) out.add(span);
		}
		return out;
	}
	enclosingLoops(sdfg) {
		let table = this.enclosing.get(sdfg);
		if (table) return table;
		table = /* @__PURE__ */ new Map();
		const visit = (blocks, around) => {
			for (const b of blocks) if (b.kind === "state") table.set(b, around);
			else if (b.kind === "region") visit(b.blocks, around);
			else if (b.kind === "loop") visit(b.blocks, [...around, b]);
			else if (b.kind === "conditional") for (const br of b.branches) visit(br.body.blocks, around);
		};
		visit(sdfg.body.blocks, []);
		this.enclosing.set(sdfg, table);
		return table;
	}
	/** Rule of docs/liveness.md §3.1 for one loop and one container. */
	isWriteFirst(loop, sdfg, name, desc) {
		for (const code of [
			loop.init,
			loop.condition,
			loop.update
		]) if (code !== null && this.codeReads(code, name)) return false;
		const visited = /* @__PURE__ */ new Set();
		let idx = loop.start;
		while (idx !== null && !visited.has(idx)) {
			visited.add(idx);
			const block = loop.blocks[idx];
			if (!block) return false;
			if (block.kind === "state" && this.touchesInBlock(block, name)) return this.fullyOverwritten(block, sdfg, name, desc);
			if (block.kind !== "state" && (this.touchesInBlock(block, name) || mayLeaveIteration(block, false))) return false;
			const out = loop.edges.filter((e) => e.src === idx);
			if (out.length !== 1) return false;
			const e = out[0];
			if (!isTriviallyTrue(e.condition)) return false;
			if (e.assignments.some(([, rhs]) => this.codeReads(rhs, name))) return false;
			idx = e.dst;
		}
		return false;
	}
	/** Whether `block` (recursively) has an access node of `name` or code that reads it. */
	touchesInBlock(block, name) {
		return this.namesTouchedBy(block).has(name);
	}
	codeReads(code, name) {
		return this.namesReadBy(code).has(name);
	}
	touchedNames = /* @__PURE__ */ new WeakMap();
	codeNames = /* @__PURE__ */ new Map();
	/** Container names (first component of dotted names) that `code` reads. */
	namesReadBy(code) {
		let hit = this.codeNames.get(code);
		if (hit) return hit;
		const trimmed = code.trim();
		let names = [];
		if (trimmed) try {
			names = this.symbols.exprs.namesOf(this.symbols.exprs.py(trimmed));
		} catch {
			names = trimmed.match(/[A-Za-z_][A-Za-z0-9_.]*/g) ?? [];
		}
		hit = new Set([...names].map((n) => n.split(".")[0]));
		this.codeNames.set(code, hit);
		return hit;
	}
	/** Every container name `block` touches: access nodes (and the roots of dotted member paths) and names read
	* by its loop statements, interstate edges and branch conditions, recursively. */
	namesTouchedBy(block) {
		let hit = this.touchedNames.get(block);
		if (hit) return hit;
		const names = /* @__PURE__ */ new Set();
		const addCode = (code) => {
			if (code !== null) for (const n of this.namesReadBy(code)) names.add(n);
		};
		switch (block.kind) {
			case "state":
				for (const n of block.nodes) {
					if (n.kind !== "access") continue;
					names.add(n.data);
					const dot = n.data.indexOf(".");
					if (dot > 0) names.add(n.data.slice(0, dot));
				}
				break;
			case "region":
			case "loop":
				if (block.kind === "loop") [
					block.init,
					block.condition,
					block.update
				].forEach(addCode);
				for (const e of block.edges) {
					addCode(e.condition);
					for (const [, rhs] of e.assignments) addCode(rhs);
				}
				for (const b of block.blocks) for (const n of this.namesTouchedBy(b)) names.add(n);
				break;
			case "conditional": for (const br of block.branches) {
				addCode(br.condition);
				for (const n of this.namesTouchedBy(br.body)) names.add(n);
			}
		}
		this.touchedNames.set(block, names);
		return names;
	}
	/**
	* Whether `state` writes every element of `name` and reads none: its AccessNodes of the container have no
	* outgoing data edges, and the incoming writes (tasklet elements or copies, possibly through maps, no WCR,
	* not dynamic) cover the whole shape for the analysed symbol values.
	*/
	fullyOverwritten(state, sdfg, name, desc) {
		const boxes = [];
		for (const node of state.nodes) {
			if (node.kind !== "access" || node.data !== name) continue;
			for (const e of state.edges) {
				if (e.memlet.data === null) continue;
				if (e.src === node.id) return false;
				if (e.dst !== node.id) continue;
				const written = this.writtenBoxes(state, sdfg, e, name, desc, []);
				if (!written) return false;
				boxes.push(...written);
			}
		}
		const shape = [];
		for (const dim of desc.shape) {
			const v = this.fieldValue(sdfg, dim);
			if (v === null) return false;
			shape.push(v);
		}
		return covers(boxes, shape);
	}
	writtenBoxes(state, sdfg, e, name, desc, params) {
		if (e.memlet.wcr !== null || e.memlet.dynamic) return null;
		const src = state.nodes[e.src];
		if (!src) return null;
		const subset = e.memlet.data === name ? e.memlet.subset : e.memlet.otherSubset;
		switch (src.kind) {
			case "map_exit": {
				const entry = src.entryId === null ? null : state.nodes[src.entryId];
				if (!entry || entry.kind !== "map_entry" || !e.srcConnector?.startsWith("OUT_")) return null;
				const own = this.mapParams(entry, sdfg, params);
				if (!own) return null;
				const inner = params.concat(own);
				const inConnector = `IN_${e.srcConnector.slice(4)}`;
				const feeding = state.edges.filter((x) => x.dst === src.id && x.dstConnector === inConnector && x.memlet.data !== null);
				if (feeding.length === 0) return null;
				const out = [];
				for (const f of feeding) {
					const boxes = this.writtenBoxes(state, sdfg, f, name, desc, inner);
					if (!boxes) return null;
					out.push(...boxes);
				}
				return out;
			}
			case "tasklet": {
				if (!subset || !this.singleElement(subset)) return null;
				const box = this.boxOf(subset, sdfg, desc, params);
				return box ? [box] : null;
			}
			case "access": {
				const from = sdfg.arrays.get(src.data);
				if (src.data === name || !from || from.type !== "Array" && from.type !== "Scalar") return null;
				if (!subset) return e.memlet.data === name && params.length === 0 ? [desc.shape.map(() => ({
					lo: -(1n << 62n),
					hi: 1n << 62n
				}))] : null;
				const box = this.boxOf(subset, sdfg, desc, params);
				return box ? [box] : null;
			}
			default: return null;
		}
	}
	/** Rectangular map ranges only: bounds that name an enclosing parameter make the union hard to bound. */
	mapParams(entry, sdfg, outer) {
		const names = /* @__PURE__ */ new Set([...outer.map((p) => p.name), ...entry.map.params]);
		if (names.size !== outer.length + entry.map.params.length) return null;
		const out = [];
		for (let i = 0; i < entry.map.params.length; i++) {
			const r = entry.map.range[i];
			if (!r) return null;
			const step = this.fieldValue(sdfg, r.step, names);
			const lo = this.fieldValue(sdfg, r.start, names);
			const hi = this.fieldValue(sdfg, r.end, names);
			if (step !== 1n || lo === null || hi === null) return null;
			out.push({
				name: entry.map.params[i],
				lo,
				hi
			});
		}
		return out;
	}
	singleElement(subset) {
		if (subset.kind === "indices") return true;
		if (subset.kind !== "range") return false;
		return subset.dims.every((d) => {
			try {
				const diff = E.sub(this.symbols.exprs.sym(d.end), this.symbols.exprs.sym(d.start));
				return diff.k === "int" && diff.v === 0n;
			} catch {
				return false;
			}
		});
	}
	/** The elements a subset names while the map parameters run over their ranges, as one box. */
	boxOf(subset, sdfg, desc, params) {
		let dims;
		if (subset.kind === "range") dims = subset.dims;
		else if (subset.kind === "indices") dims = subset.indices.map((i) => ({
			start: i,
			end: i,
			step: "1",
			tile: "1"
		}));
		else return null;
		if (dims.length !== desc.shape.length) return null;
		const paramNames = new Set(params.map((p) => p.name));
		const used = /* @__PURE__ */ new Set();
		const box = [];
		for (const d of dims) {
			let start;
			let end;
			try {
				start = this.symbols.exprs.sym(d.start);
				end = this.symbols.exprs.sym(d.end);
			} catch {
				return null;
			}
			if (this.fieldValue(sdfg, d.tile, paramNames) !== 1n) return null;
			const single = E.sub(end, start);
			if (!(single.k === "int" && single.v === 0n) && this.fieldValue(sdfg, d.step, paramNames) !== 1n) return null;
			const inDim = [...paramNames].filter((p) => this.symbols.exprs.namesOf(start).has(p) || this.symbols.exprs.namesOf(end).has(p));
			if (inDim.length === 0) {
				const lo = this.exprValue(sdfg, start);
				const hi = this.exprValue(sdfg, end);
				if (lo === null || hi === null) return null;
				box.push({
					lo,
					hi
				});
				continue;
			}
			const name = inDim[0];
			if (inDim.length > 1 || used.has(name)) return null;
			used.add(name);
			const p = params.find((x) => x.name === name);
			const a = E.sub(start, E.sym(name));
			const b = E.sub(end, E.sym(name));
			for (const x of [a, b]) for (const n of this.symbols.exprs.namesOf(x)) if (paramNames.has(n)) return null;
			const av = this.exprValue(sdfg, a);
			const bv = this.exprValue(sdfg, b);
			if (av === null || bv === null) return null;
			if (av > bv || p.hi < p.lo) box.push({
				lo: 1n,
				hi: 0n
			});
			else box.push({
				lo: p.lo + av,
				hi: p.hi + bv
			});
		}
		return box;
	}
	fieldValue(sdfg, src, excluded = /* @__PURE__ */ new Set()) {
		let e;
		try {
			e = this.symbols.exprs.sym(src);
		} catch {
			return null;
		}
		for (const n of this.symbols.exprs.namesOf(e)) if (excluded.has(n)) return null;
		return this.exprValue(sdfg, e);
	}
	/** Value for the analysed symbols; null when a name has no root meaning or no known value. */
	exprValue(sdfg, e) {
		const root = this.symbols.toRoot(sdfg, e);
		if (!root.expr) return null;
		const env = /* @__PURE__ */ new Map();
		for (const n of this.symbols.exprs.namesOf(root.expr)) {
			const v = this.userSymbols.get(n) ?? this.symbols.values.get(n);
			if (v === void 0) return null;
			env.set(n, v);
		}
		return evaluate(root.expr, env);
	}
};
/** Whether running `block` can end the current iteration of the enclosing loop early. */
function mayLeaveIteration(block, insideInnerLoop) {
	switch (block.kind) {
		case "return": return true;
		case "break":
		case "continue": return !insideInnerLoop;
		case "region": return block.blocks.some((b) => mayLeaveIteration(b, insideInnerLoop));
		case "loop": return block.blocks.some((b) => mayLeaveIteration(b, true));
		case "conditional": return block.branches.some((br) => mayLeaveIteration(br.body, insideInnerLoop));
		default: return false;
	}
}
function isTriviallyTrue(condition) {
	const c = condition.trim();
	return c === "" || c === "1" || c === "True" || c === "(1)" || c === "(True)";
}
/** Whether the union of the boxes contains every index of `shape` (coordinate compression). */
function covers(boxes, shape) {
	if (shape.some((s) => s <= 0n)) return true;
	const live = boxes.filter((b) => b.length === shape.length && b.every((iv) => iv.lo <= iv.hi));
	if (live.length === 0) return false;
	const cuts = shape.map((extent, d) => {
		const set = /* @__PURE__ */ new Set([0n, extent]);
		for (const b of live) {
			const iv = b[d];
			if (iv.lo > 0n && iv.lo < extent) set.add(iv.lo);
			if (iv.hi + 1n > 0n && iv.hi + 1n < extent) set.add(iv.hi + 1n);
		}
		return [...set].sort((x, y) => x < y ? -1 : x > y ? 1 : 0);
	});
	let cells = 1;
	for (const c of cuts) {
		cells *= c.length - 1;
		if (cells > MAX_COVERAGE_CELLS) return false;
	}
	const index = new Array(shape.length).fill(0);
	for (let n = 0; n < cells; n++) {
		let rest = n;
		for (let d = shape.length - 1; d >= 0; d--) {
			const count = cuts[d].length - 1;
			index[d] = rest % count;
			rest = Math.floor(rest / count);
		}
		if (!live.some((b) => b.every((iv, d) => iv.lo <= cuts[d][index[d]] && cuts[d][index[d] + 1] - 1n <= iv.hi))) return false;
	}
	return true;
}
// electron/engine/analysis/symbols.ts
/** Names an SDFG binds itself: they are not free, whatever `symbols` declares. */
function definedSymbols(sdfg) {
	const out = /* @__PURE__ */ new Set();
	const visit = (blocks) => {
		for (const b of blocks) if (b.kind === "state") {
			for (const n of b.nodes) if (n.kind === "map_entry") for (const p of n.map.params) out.add(p);
			for (const n of b.nodes) if (n.kind === "consume_entry" && n.peIndex) out.add(n.peIndex);
		} else if (b.kind === "region" || b.kind === "loop") {
			if (b.kind === "loop" && b.loopVariable) out.add(b.loopVariable);
			for (const e of b.edges) for (const [name] of e.assignments) out.add(name);
			visit(b.blocks);
		} else if (b.kind === "conditional") visit(b.branches.map((br) => br.body));
	};
	for (const e of sdfg.body.edges) for (const [name] of e.assignments) out.add(name);
	visit(sdfg.body.blocks);
	return out;
}
var SymbolContext = class {
	file;
	opts;
	exprs;
	defined = /* @__PURE__ */ new Map();
	translated = /* @__PURE__ */ new Map();
	env = /* @__PURE__ */ new Map();
	resolved = /* @__PURE__ */ new Map();
	unresolved = /* @__PURE__ */ new Set();
	constructor(file, opts) {
		this.file = file;
		this.opts = opts;
		this.exprs = new ExprCache(file.grammar);
		for (const [name, value] of opts.symbols) this.resolved.set(name, {
			value,
			source: "user"
		});
		for (const name of file.root.symbols.keys()) if (!this.definedIn(file.root).has(name)) this.lookup(name);
	}
	definedIn(sdfg) {
		let hit = this.defined.get(sdfg);
		if (!hit) {
			hit = definedSymbols(sdfg);
			this.defined.set(sdfg, hit);
		}
		return hit;
	}
	/** Root expression of one symbol name as seen inside `sdfg`, or null. */
	translateName(sdfg, name) {
		let table = this.translated.get(sdfg);
		if (!table) {
			table = /* @__PURE__ */ new Map();
			this.translated.set(sdfg, table);
		}
		if (table.has(name)) return table.get(name);
		table.set(name, null);
		let result = null;
		if (this.definedIn(sdfg).has(name)) result = null;
		else if (!sdfg.parent) result = symExpr(name);
		else {
			const outer = sdfg.parent.node.symbolMapping[name];
			if (outer !== void 0) try {
				result = this.toRoot(sdfg.parent.sdfg, this.exprs.sym(outer)).expr;
			} catch {
				result = null;
			}
		}
		table.set(name, result);
		return result;
	}
	/** Rewrites an expression of `sdfg` into root symbols. */
	toRoot(sdfg, e) {
		const names = this.exprs.namesOf(e);
		if (names.size === 0) return {
			expr: e,
			untranslated: []
		};
		const mapping = /* @__PURE__ */ new Map();
		const untranslated = [];
		for (const name of names) {
			const t = this.translateName(sdfg, name);
			if (t === null) untranslated.push(name);
			else if (!sdfg.parent && t !== null) continue;
			else mapping.set(name, t);
		}
		if (untranslated.length) return {
			expr: null,
			untranslated: untranslated.sort()
		};
		return {
			expr: sdfg.parent ? rename(e, mapping) : e,
			untranslated: []
		};
	}
	/** Value of a root symbol: the user's, else the default for free symbols, else unknown. */
	lookup(name) {
		const hit = this.resolved.get(name);
		if (hit) {
			this.env.set(name, hit.value);
			return hit.value;
		}
		if (this.opts.defaultSymbol !== null && !this.definedIn(this.file.root).has(name)) {
			this.resolved.set(name, {
				value: this.opts.defaultSymbol,
				source: "default"
			});
			this.env.set(name, this.opts.defaultSymbol);
			return this.opts.defaultSymbol;
		}
		this.unresolved.add(name);
		return null;
	}
	/** Evaluates a root expression; records every symbol it needed. */
	valueOf(rootExpr) {
		let missing = false;
		for (const name of this.exprs.namesOf(rootExpr)) if (this.lookup(name) === null) missing = true;
		return missing ? null : evaluate(rootExpr, this.env);
	}
	/** Parses, translates and evaluates a symbolic field of `sdfg` (null on any failure). */
	valueOfField(sdfg, src, approx = true) {
		let e;
		try {
			e = approx ? this.exprs.size(src) : this.exprs.sym(src);
		} catch {
			return null;
		}
		const root = this.toRoot(sdfg, e);
		return root.expr ? this.valueOf(root.expr) : null;
	}
	symbolValues() {
		return new Map([...this.resolved].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
	}
	unresolvedSymbols() {
		return [...this.unresolved].filter((n) => !this.resolved.has(n)).sort();
	}
	defaultedSymbols() {
		return [...this.resolved].filter(([, v]) => v.source === "default").map(([n]) => n).sort();
	}
	/** Environment of known root values (read-only view for callers evaluating by hand). */
	get values() {
		return this.env;
	}
};
// electron/engine/analysis/types.ts
const MODES = [
	"SCOPED",
	"PERSISTENT",
	"POOL",
	"EXTERNAL"
];
// electron/engine/analysis/index.ts
/** Repeated warnings of one kind are summarised after this many. */
const WARNINGS_PER_KIND = 10;
function transientCandidates(file) {
	const out = [];
	const members = (sdfg, owner, path) => {
		for (const m of owner.members ?? []) {
			const name = `${path}.${m.name}`;
			if (m.transient) out.push({
				desc: m,
				sdfg,
				name,
				memberOf: path
			});
			members(sdfg, m, name);
		}
	};
	for (const sdfg of file.sdfgs) for (const desc of sdfg.arrays.values()) {
		if (desc.transient) out.push({
			desc,
			sdfg,
			name: desc.name,
			memberOf: null
		});
		members(sdfg, desc, desc.name);
	}
	return out;
}
function analyze(file, opts) {
	const warnings = [];
	const { target, reason: targetReason } = detectTarget(file, opts.target);
	const symbols = new SymbolContext(file, opts);
	const counter = new ExecutionCounter(symbols);
	const order = linearize(file, counter);
	const access = new AccessIndex(file);
	const reads = controlFlowReads(order, symbols.exprs);
	const cover = new LoopCover(order);
	const writeFirst = new WriteFirstLoops(order, symbols, opts.symbols);
	const sizeProblems = [];
	const transients = [];
	const footprints = /* @__PURE__ */ new Map();
	for (const c of transientCandidates(file)) {
		const { desc, sdfg } = c;
		const id = `${sdfg.sdfgIndex}:${c.name}`;
		const sites = access.of(sdfg, c.name);
		const embedding = access.embeddingOf(sdfg);
		const fp = footprint(desc, sdfg, symbols);
		footprints.set(id, fp);
		if (fp.problem) sizeProblems.push(`${desc.jsonPath}: ${fp.problem}`);
		const storage = effectiveStorage(desc, sites, embedding, fp.sizeSymbols.length === 0 ? fp.bytes : null);
		const el = eligibility({
			desc,
			sdfg,
			memberOf: c.memberOf,
			sites,
			embedding,
			footprint: fp,
			effectiveStorage: storage,
			definedInSdfg: symbols.definedIn(sdfg)
		});
		const cfReads = c.memberOf === null ? reads.get(sdfg)?.get(c.name) : void 0;
		const alloc = allocationOf({
			desc,
			sdfg,
			memberOf: c.memberOf,
			sites,
			reads: cfReads,
			effectiveStorage: storage
		}, order, counter);
		transients.push({
			id,
			sdfg: sdfg.sdfgIndex,
			sdfgName: sdfg.name,
			name: c.name,
			type: desc.type,
			dtype: dtypeName(desc.dtype),
			shape: desc.shape.map((d) => symbols.exprs.display(d)),
			storage: desc.storage,
			effectiveStorage: storage,
			lifetime: desc.lifetime,
			bytes: fp.bytes,
			bytesExpr: fp.bytesExpr,
			eligible: {
				PERSISTENT: el.PERSISTENT,
				EXTERNAL: el.EXTERNAL
			},
			reason: el.reason,
			live: liveRange(sites, cfReads, order, cover, c.memberOf === null ? writeFirst.loopsWithoutWidening(sdfg, c.name, desc, sites) : void 0),
			allocation: alloc.site,
			executionsPerCall: alloc.executionsPerCall,
			jsonPath: desc.jsonPath
		});
	}
	const fullSpan = {
		first: 0,
		last: Math.max(0, order.steps.length - 1)
	};
	const spanOf = (t) => t.live ?? fullSpan;
	const externalSet = transients.filter((t) => t.eligible.EXTERNAL || t.allocation.kind === "external");
	const daceEntries = externalSet.map((t) => {
		const fp = footprints.get(t.id);
		return {
			id: t.id,
			storage: t.effectiveStorage,
			bytes: t.bytes,
			bytesExpr: fp.rootExpr ?? fp.localExpr,
			bytesText: t.bytesExpr
		};
	});
	const packed = {};
	for (const [storage, members] of groupBy(externalSet, (t) => t.effectiveStorage)) {
		if (members.some((t) => t.bytes === null)) {
			packed[storage] = null;
			continue;
		}
		packed[storage] = packLayout(members.map((t) => ({
			id: t.id,
			bytes: t.bytes,
			...spanOf(t)
		})), alignmentFor(storage));
	}
	const peakLiveBytes = {};
	const holding = transients.filter((t) => allocatesPerCall(t.allocation) || t.allocation.kind === "init" || t.allocation.kind === "external");
	for (const [storage, members] of groupBy(holding, (t) => t.effectiveStorage)) peakLiveBytes[storage] = members.some((t) => t.bytes === null) ? null : peakOverlap(members.map((t) => ({
		bytes: t.bytes,
		...spanOf(t)
	})));
	const modes = planModes(transients, target, packed);
	const defaulted = symbols.defaultedSymbols();
	if (defaulted.length && opts.defaultSymbol !== null) warnings.push(`--default-symbol ${opts.defaultSymbol} used for ${defaulted.length} symbol(s): ${listNames(defaulted)}`);
	const unresolved = symbols.unresolvedSymbols();
	if (unresolved.length) warnings.push(`no value for ${unresolved.length} symbol(s) ${listNames(unresolved)}: sizes that use them stay symbolic (give --symbols or --default-symbol)`);
	const unknownExec = transients.filter((t) => allocatesPerCall(t.allocation) && t.executionsPerCall === null);
	if (unknownExec.length) warnings.push(`executions per call unknown for ${unknownExec.length} transient(s) (state-machine or data-dependent loops, or unknown symbols): per-call totals are null`);
	pushCapped(warnings, sizeProblems, "unreadable sizes");
	pushCapped(warnings, file.warnings.map((w) => `${w.jsonPath}: ${w.message}`), "parser warnings");
	return {
		file,
		target,
		targetReason,
		symbols: symbols.symbolValues(),
		unresolvedSymbols: unresolved,
		steps: order.steps,
		transients,
		modes,
		layouts: {
			dace: daceLayouts(daceEntries),
			packed
		},
		peakLiveBytes,
		warnings
	};
}
function groupBy(items, key) {
	const out = /* @__PURE__ */ new Map();
	for (const it of items) {
		const k = key(it);
		const g = out.get(k);
		if (g) g.push(it);
		else out.set(k, [it]);
	}
	return new Map([...out].sort(([a], [b]) => a < b ? -1 : a > b ? 1 : 0));
}
function pushCapped(warnings, items, what) {
	warnings.push(...items.slice(0, WARNINGS_PER_KIND));
	if (items.length > WARNINGS_PER_KIND) warnings.push(`… and ${items.length - WARNINGS_PER_KIND} more ${what}`);
}
/** Real programs (Fortran front ends) have thousands of symbols: name the first few, count the rest. */
function listNames(names, max = 12) {
	if (names.length <= max) return names.join(", ");
	return `${names.slice(0, max).join(", ")} and ${names.length - max} more (all listed in --json)`;
}
// electron/engine/analysis/json.ts
const ANALYSIS_SCHEMA = "transient-lab/analysis@1";
function jsonInt(v) {
	if (v === null) return null;
	return v <= BigInt(Number.MAX_SAFE_INTEGER) && v >= BigInt(Number.MIN_SAFE_INTEGER) ? Number(v) : v.toString();
}
const intRecord = (r) => Object.fromEntries(Object.entries(r).map(([k, v]) => [k, jsonInt(v)]));
function allocationJson(site) {
	switch (site.kind) {
		case "sdfg": return {
			kind: site.kind,
			sdfg: site.sdfg
		};
		case "state": return {
			kind: site.kind,
			sdfg: site.sdfg,
			state: site.stateJsonPath
		};
		case "scope": return {
			kind: site.kind,
			sdfg: site.sdfg,
			state: site.stateJsonPath,
			mapEntry: site.mapEntryId
		};
		case "none": return {
			kind: site.kind,
			why: site.why
		};
		default: return { kind: site.kind };
	}
}
function transientJson(t) {
	return {
		id: t.id,
		sdfg: t.sdfg,
		name: t.name,
		type: t.type,
		dtype: t.dtype,
		shape: t.shape,
		storage: t.storage,
		effectiveStorage: t.effectiveStorage,
		lifetime: t.lifetime,
		bytes: jsonInt(t.bytes),
		bytesExpr: t.bytesExpr,
		eligible: t.eligible,
		reason: t.reason,
		live: t.live,
		allocation: allocationJson(t.allocation),
		executionsPerCall: jsonInt(t.executionsPerCall),
		jsonPath: t.jsonPath
	};
}
function modeJson(m) {
	return {
		perCall: {
			allocs: jsonInt(m.perCall.allocs),
			frees: jsonInt(m.perCall.frees),
			bytes: jsonInt(m.perCall.bytes)
		},
		init: {
			allocs: m.init.allocs,
			bytes: jsonInt(m.init.bytes)
		},
		workspace: intRecord(m.workspace),
		stillAllocating: m.stillAllocating,
		pooled: m.pooled,
		notes: m.notes
	};
}
function toAnalysisJson(a) {
	const f = a.file;
	return {
		schema: ANALYSIS_SCHEMA,
		sdfg: {
			name: f.root.name,
			daceVersion: f.daceVersion,
			sdfgs: f.stats.sdfgs,
			states: f.stats.states,
			nodes: f.stats.nodes,
			edges: f.stats.edges,
			file: f.path,
			generation: f.generation,
			grammar: f.grammar
		},
		target: a.target,
		targetReason: a.targetReason,
		symbols: Object.fromEntries([...a.symbols].map(([k, v]) => [k, {
			value: jsonInt(v.value),
			source: v.source
		}])),
		unresolvedSymbols: a.unresolvedSymbols,
		steps: a.steps.map((s) => ({
			index: s.index,
			label: s.label
		})),
		transients: a.transients.map(transientJson),
		modes: Object.fromEntries(MODES.map((m) => [m, modeJson(a.modes[m])])),
		layouts: {
			dace: Object.fromEntries(Object.entries(a.layouts.dace).map(([storage, l]) => [storage, {
				bytes: jsonInt(l.bytes),
				bytesExpr: l.bytesExpr,
				offsets: Object.fromEntries(l.order.map((id) => {
					const off = l.offsets.get(id);
					return [id, typeof off === "bigint" ? jsonInt(off) : off];
				}))
			}])),
			packed: Object.fromEntries(Object.entries(a.layouts.packed).map(([storage, l]) => [storage, l === null ? null : {
				bytes: jsonInt(l.bytes),
				alignment: l.alignment,
				offsets: Object.fromEntries([...l.offsets].map(([id, off]) => [id, jsonInt(off)])),
				lowerBound: jsonInt(l.lowerBound),
				alignedSum: jsonInt(l.alignedSum)
			}]))
		},
		peakLiveBytes: intRecord(a.peakLiveBytes),
		warnings: a.warnings
	};
}
// tests/e2e/graph-server.ts
/**
* A trivial bridge for the graph harness page (renderer/src/graph/harness/): serves the built page and answers
* `open`, `graph`, `search` and `analysis` from the engine, for the graph e2e test and the graph bench. It stands
* in for `transient-lab serve` and is never shipped: corpus files only, 127.0.0.1 only.
*/
const HARNESS_DIR = join(packageRoot(), "dist", "graph-harness");
const TYPES = {
	".html": "text/html; charset=utf-8",
	".js": "text/javascript; charset=utf-8",
	".css": "text/css; charset=utf-8",
	".map": "application/json",
	".json": "application/json"
};
async function startHarnessServer() {
	if (!existsSync(join(HARNESS_DIR, "index.html"))) throw new Error(`the graph harness is not built (${HARNESS_DIR}); run: npx vite build --config renderer/graph-harness.config.ts`);
	const docs = /* @__PURE__ */ new Map();
	const analyses = /* @__PURE__ */ new Map();
	const timings = [];
	let seq = 0;
	const server = createServer((req, res) => {
		(async () => {
			const url = new URL(req.url ?? "/", "http://127.0.0.1");
			const send = (status, body, type = "application/json") => {
				res.writeHead(status, {
					"content-type": type,
					"cache-control": "no-store"
				});
				res.end(body);
			};
			const doc = () => {
				const f = docs.get(url.searchParams.get("doc") ?? "");
				if (!f) throw new TlabError("usage", "unknown doc");
				return f;
			};
			const timed = (endpoint, f) => {
				const t0 = performance.now();
				const body = JSON.stringify(f());
				timings.push({
					endpoint,
					ms: performance.now() - t0,
					bytes: body.length
				});
				send(200, body);
			};
			try {
				switch (url.pathname) {
					case "/api/open": {
						const name = url.searchParams.get("file") ?? "";
						if (!/^[^/\\]+\.sdfgz?$/.test(name)) throw new TlabError("usage", `not a corpus file name: ${name}`);
						const t0 = performance.now();
						const file = await readSdfgFile(join(corpusDir(), name));
						const parseMs = performance.now() - t0;
						const id = `d${++seq}`;
						docs.clear();
						analyses.clear();
						docs.set(id, file);
						timings.push({
							endpoint: "open",
							ms: parseMs,
							bytes: 0
						});
						return send(200, JSON.stringify({
							doc: id,
							parseMs
						}));
					}
					case "/api/graph": return timed("graph", () => graphRegion(doc(), url.searchParams.get("region") || null));
					case "/api/search": return timed("search", () => searchGraph(doc(), url.searchParams.get("q") ?? "", Number(url.searchParams.get("limit") ?? 50)));
					case "/api/analysis": {
						const key = url.searchParams.get("doc") ?? "";
						let a = analyses.get(key);
						if (!a) {
							a = toAnalysisJson(analyze(doc(), {
								symbols: /* @__PURE__ */ new Map(),
								defaultSymbol: 64n,
								target: null
							}));
							analyses.set(key, a);
						}
						return send(200, JSON.stringify(a));
					}
					default: {
						const rel = url.pathname === "/" ? "index.html" : decodeURIComponent(url.pathname.slice(1));
						const path = resolve(HARNESS_DIR, rel);
						if (!path.startsWith(HARNESS_DIR + sep) || !existsSync(path) || !statSync(path).isFile()) return send(404, "not found", "text/plain");
						return send(200, readFileSync(path, "utf8"), TYPES[extname(path)] ?? "application/octet-stream");
					}
				}
			} catch (err) {
				send(err instanceof TlabError ? 400 : 500, JSON.stringify({ error: err instanceof TlabError ? err.describe() : String(err) }));
			}
		})();
	});
	await new Promise((r) => server.listen(0, "127.0.0.1", () => r()));
	const { port } = server.address();
	return {
		url: `http://127.0.0.1:${port}/`,
		timings,
		close: () => new Promise((r) => server.close(() => r()))
	};
}
// ../../tmp/gprof/prof.ts
const file = process.argv[2];
const mode = process.argv[3] ?? "expand";
async function main() {
	const server = await startHarnessServer();
	const browser = await chromium.launch({
		executablePath: "/usr/bin/chromium",
		headless: true,
		args: ["--no-sandbox", "--disable-gpu"]
	});
	const page = await browser.newPage({ viewport: {
		width: 1400,
		height: 900
	} });
	page.on("console", (m) => {
		if (m.type() === "error") console.log("console error:", m.text());
	});
	await page.goto(server.url);
	const r = await page.evaluate((f) => window.tlab.open(f, { marks: false }), file);
	console.log("open", JSON.stringify(r), JSON.stringify(await page.evaluate(() => window.tlab.view.metrics.open)), "server timings", JSON.stringify(server.timings.slice(0, 20).map((t) => [
		t.endpoint,
		Math.round(t.ms),
		t.bytes
	])));
	const cdp0 = await page.context().newCDPSession(page);
	if (mode === "expand") {
		await cdp0.send("Profiler.enable");
		await cdp0.send("Profiler.setSamplingInterval", { interval: 500 });
		await cdp0.send("Profiler.start");
		const t0 = Date.now();
		const all = await page.evaluate(() => window.tlab.view.expandAll(4e3));
		console.log("expandAll", JSON.stringify(all), Date.now() - t0, "ms; layout ms", await page.evaluate(() => window.tlab.view.metrics.lastLayoutMs));
		const { profile } = await cdp0.send("Profiler.stop");
		writeFileSync("/tmp/gprof/profile-expand.json", JSON.stringify(profile));
	}
	await page.waitForTimeout(500);
	const cdp = await page.context().newCDPSession(page);
	await cdp.send("Profiler.enable");
	await cdp.send("Profiler.setSamplingInterval", { interval: 200 });
	await cdp.send("Profiler.start");
	const fr = await page.evaluate(() => window.tlab.panZoom(120));
	const iv = [...fr.interval].sort((a, b) => a - b);
	console.log("intervals p50", iv[60].toFixed(1), "p95", iv[Math.floor(iv.length * .95)].toFixed(1));
	const frames = fr.draw;
	const { profile } = await cdp.send("Profiler.stop");
	writeFileSync("/tmp/gprof/profile.json", JSON.stringify(profile));
	const sorted = [...frames].sort((a, b) => a - b);
	console.log("frames", frames.length, "p50", sorted[Math.floor(sorted.length / 2)].toFixed(1), "p95", sorted[Math.floor(sorted.length * .95)].toFixed(1), "max", sorted[sorted.length - 1].toFixed(1));
	const lt = await page.evaluate(() => window.tlab.longTasks);
	console.log("long tasks", JSON.stringify(lt.map((l) => Math.round(l.duration))));
	await page.screenshot({ path: "/tmp/gprof/shot.png" });
	await browser.close();
	await server.close();
}
main();
export {};
