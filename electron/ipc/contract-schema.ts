/**
 * Runtime validation of every request payload of the contract (valibot). Hosts run each payload through
 * `requestSchemas(limits)[method]` before the service sees it; the schemas' output types are checked against
 * contract.ts at compile time, so the two cannot drift.
 *
 * Everything is bounded: string lengths, record sizes, numeric ranges, upload bytes. Objects are strict: an
 * unknown key is an error, which catches typos in the renderer early.
 */
import * as v from 'valibot';
import { MODES } from '../engine/analysis/types.js';
import type { HostLimits, MethodName, RequestOf } from './contract.js';
import { profileResultSchema } from './result-schema.js';

export const DEFAULT_LIMITS: HostLimits = {
  uploadBytes: 256 * 1024 * 1024,
  pathChars: 4096,
  profileCalls: 200_000,
};

const MAX_SYMBOLS = 10_000;
const MAX_INPUTS = 256;
const MAX_REPORT_RESULTS = 8;
const REPORT_FORMATS = ['html', 'pdf', 'csv', 'json'] as const;

const IDENT = /^[A-Za-z_][A-Za-z0-9_]*$/;
/** Symbol values: decimal integers (they may exceed 2^53, so they travel as strings). */
const INTEGER_TEXT = /^-?\d{1,39}$/;
const HANDLE = /^[A-Za-z0-9_-]+$/;

const handle = (what: string) =>
  v.pipe(
    v.string(`${what} must be a string`),
    v.minLength(1, `${what} is empty`),
    v.maxLength(64, `${what} is longer than 64 characters`),
    v.regex(HANDLE, `${what} may only hold letters, digits, _ and -`),
  );

function pathText(limits: HostLimits) {
  return v.pipe(
    v.string('a path must be a string'),
    v.minLength(1, 'the path is empty'),
    v.maxLength(limits.pathChars, `the path is longer than ${limits.pathChars} characters`),
    v.check((p) => !p.includes('\0'), 'the path contains a NUL character'),
  );
}

const uploadName = v.pipe(
  v.string('the file name must be a string'),
  v.minLength(1, 'the file name is empty'),
  v.maxLength(255, 'the file name is longer than 255 characters'),
  v.check((n) => !/[\\/\0]/.test(n), 'the file name may not contain /, \\ or NUL'),
);

function uploadBytes(limits: HostLimits) {
  const mib = (limits.uploadBytes / 2 ** 20).toFixed(0);
  return v.pipe(
    v.instance(Uint8Array, 'bytes must be binary (Uint8Array)'),
    v.check((b) => b.byteLength > 0, 'the upload is empty'),
    v.check((b) => b.byteLength <= limits.uploadBytes, `the upload is larger than the host's limit of ${mib} MiB`),
  );
}

const integerText = v.pipe(
  v.string('an integer value must be a decimal string'),
  v.regex(INTEGER_TEXT, 'expected a decimal integer such as 128'),
);

const symbolValues = v.pipe(
  v.record(
    v.pipe(
      v.string(),
      v.maxLength(256, 'a symbol name is longer than 256 characters'),
      v.regex(IDENT, 'a symbol name must be an identifier'),
    ),
    integerText,
  ),
  v.maxEntries(MAX_SYMBOLS, `more than ${MAX_SYMBOLS} symbol values`),
);

const boundedInt = (what: string, min: number, max: number) =>
  v.pipe(
    v.number(`${what} must be a number`),
    v.integer(`${what} must be an integer`),
    v.minValue(min, `${what} must be at least ${min}`),
    v.maxValue(max, `${what} must be at most ${max}`),
  );

function profileRequest(limits: HostLimits) {
  return v.pipe(
    v.strictObject({
      doc: handle('doc'),
      job: handle('job'),
      modes: v.pipe(
        v.array(v.picklist(MODES, `modes must be among ${MODES.join(', ')}`)),
        v.minLength(1, 'choose at least one mode'),
        v.maxLength(MODES.length, 'a mode is listed twice'),
        v.check((m) => new Set(m).size === m.length, 'a mode is listed twice'),
      ),
      layout: v.picklist(['dace', 'packed', 'both'], 'layout must be dace, packed or both'),
      calls: boundedInt('calls', 1, 100_000),
      warmup: boundedInt('warmup', 0, 10_000),
      processes: boundedInt('processes', 1, 16),
      symbols: symbolValues,
      defaultSymbol: v.nullable(integerText),
      seed: v.pipe(
        v.string('seed must be a decimal string'),
        v.regex(/^\d{1,20}$/, 'seed must be a non-negative decimal integer'),
        v.check((s) => BigInt(s) < 2n ** 64n, 'seed must be below 2^64'),
      ),
      inputs: v.pipe(
        v.record(v.pipe(v.string(), v.maxLength(256), v.regex(IDENT, 'an input name must be an argument name')), pathText(limits)),
        v.maxEntries(MAX_INPUTS, `more than ${MAX_INPUTS} inputs`),
      ),
      timeoutS: boundedInt('timeoutS', 0, 7 * 24 * 3600),
      // The text only; the engine parses it and names what is wrong (a usage error).
      libraryImpl: v.optional(v.pipe(v.string('libraryImpl must be a string'), v.maxLength(4096, 'libraryImpl is too long'))),
      poolReleaseThreshold: v.optional(
        v.pipe(
          v.string('poolReleaseThreshold must be a string'),
          v.regex(/^(max|\d{1,20})$/, 'poolReleaseThreshold must be a decimal byte count or max'),
          // valibot runs every check even after the regex failed: BigInt only on digits.
          v.check((s) => !/^\d{1,20}$/.test(s) || BigInt(s) < 2n ** 64n, 'poolReleaseThreshold must be below 2^64 (or max)'),
        ),
      ),
      gpu: v.optional(v.picklist(['auto', 'device', 'host'], 'gpu must be auto, device or host')),
      // Only the shape here; whether the host allows it is the service's decision (its `remoteHosts`).
      remote: v.optional(
        v.nullable(
          v.pipe(
            v.string('remote must be a host name'),
            v.minLength(1, 'remote is empty'),
            v.maxLength(255, 'remote is longer than 255 characters'),
          ),
        ),
      ),
    }),
    v.check((r) => r.calls * r.processes <= limits.profileCalls, `calls × processes must be at most ${limits.profileCalls}`),
  );
}

const adviseFields = {
  doc: handle('doc'),
  symbols: symbolValues,
  defaultSymbol: v.nullable(integerText),
  target: v.nullable(v.picklist(['cpu', 'gpu'], 'target must be cpu, gpu or null')),
  layout: v.picklist(['packed', 'dace'], 'layout must be packed or dace'),
};

/** Each method's schema, typed against the contract: a schema whose output is not `RequestOf<M>` fails to compile. */
export type RequestSchemas = { [M in MethodName]: v.GenericSchema<unknown, RequestOf<M>> };

export function requestSchemas(limits: HostLimits = DEFAULT_LIMITS): RequestSchemas {
  const path = pathText(limits);
  return {
    environment: v.strictObject({}),
    listFolder: v.strictObject({ path: v.nullable(path) }),
    openFile: v.strictObject({ path }),
    openUpload: v.strictObject({ name: uploadName, bytes: uploadBytes(limits) }),
    openExample: v.strictObject({ id: handle('id') }),
    closeDoc: v.strictObject({ doc: handle('doc') }),
    docInfo: v.strictObject({ doc: handle('doc') }),
    analyze: v.strictObject({
      doc: handle('doc'),
      symbols: symbolValues,
      defaultSymbol: v.nullable(integerText),
      target: v.nullable(v.picklist(['cpu', 'gpu'], 'target must be cpu, gpu or null')),
    }),
    graph: v.strictObject({
      doc: handle('doc'),
      region: v.nullable(v.pipe(v.string('region must be a string or null'), v.maxLength(limits.pathChars))),
    }),
    search: v.strictObject({
      doc: handle('doc'),
      query: v.pipe(
        v.string('query must be a string'),
        v.minLength(1, 'the query is empty'),
        v.maxLength(256, 'the query is longer than 256 characters'),
      ),
      limit: boundedInt('limit', 1, 1000),
    }),
    profile: profileRequest(limits),
    cancel: v.strictObject({ job: handle('job') }),
    openResult: v.union(
      [v.strictObject({ path }), v.strictObject({ name: uploadName, bytes: uploadBytes(limits) })],
      'expected {path} or {name, bytes}',
    ),
    saveResult: v.strictObject({ path, result: profileResultSchema }),
    exportReport: v.strictObject({
      results: v.pipe(
        v.array(
          v.strictObject({
            label: v.pipe(
              v.string('a label must be a string'),
              v.minLength(1, 'a label is empty'),
              v.maxLength(200, 'a label is longer than 200 characters'),
            ),
            result: profileResultSchema,
          }),
        ),
        v.minLength(1, 'give at least one result'),
        v.maxLength(MAX_REPORT_RESULTS, `a report compares at most ${MAX_REPORT_RESULTS} results`),
      ),
      format: v.picklist(REPORT_FORMATS, `format must be one of ${REPORT_FORMATS.join(', ')}`),
      doc: v.nullable(handle('doc')),
    }),
    fileKind: v.strictObject({ path }),
    workloadView: v.strictObject(adviseFields),
    advise: v.strictObject({
      ...adviseFields,
      sweep: v.nullable(
        v.strictObject({
          symbol: v.pipe(
            v.string('the sweep symbol must be a string'),
            v.maxLength(256),
            v.regex(IDENT, 'the sweep symbol must be an identifier'),
          ),
          values: v.pipe(
            v.array(integerText),
            v.minLength(3, 'a sweep needs at least 3 values'),
            v.maxLength(64, 'a sweep takes at most 64 values'),
          ),
        }),
      ),
    }),
    openProgram: v.strictObject({
      doc: handle('doc'),
      program: v.pipe(v.string('program must be a string'), v.minLength(1, 'program is empty'), v.maxLength(256, 'program is too long')),
    }),
    devices: v.strictObject({}),
  };
}
