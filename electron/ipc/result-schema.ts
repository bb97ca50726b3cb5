/**
 * The shape a `transient-lab/profile@1` document must have for the renderer to draw it, as a valibot schema.
 * Used when a result file is opened and when the renderer asks to save one. Objects are loose: fields added
 * to profile@1 later (per-mode allocation events…) pass through untouched, so an older host never drops them.
 * Numbers that can be NaN in the engine (a summary of zero calls) are `null` in JSON and accepted as such.
 */
import * as v from 'valibot';
import { MODES } from '../engine/analysis/types.js';
import { PER_CALL_COLUMNS, type PerCallColumn } from '../engine/profile/columns.js';
import type { ProfileResult } from '../engine/profile/result.js';

export const PROFILE_SCHEMA_NAME = 'transient-lab/profile';
export const PROFILE_SCHEMA_VERSION = 1;

const text = v.pipe(v.string(), v.maxLength(100_000));
const num = v.number();
const numOrNull = v.nullable(v.number());
const jsonInteger = v.union([v.number(), v.pipe(v.string(), v.regex(/^-?\d{1,40}$/, 'expected a decimal integer'))]);
const mode = v.picklist(MODES);
const series = v.array(v.number());

const columns = v.pipe(
  v.looseObject(Object.fromEntries(PER_CALL_COLUMNS.map(({ name }) => [name, series])) as Record<PerCallColumn, typeof series>),
  v.check(
    (c) => PER_CALL_COLUMNS.every(({ name }) => c[name].length === c.totalNs.length),
    'every per-call column must have one entry per timed call',
  ),
);

/** profile@1's GPU additions (docs/profile-schema.md): optional, checked when present. */
const gpuMode = v.looseObject({
  deviceNs: series,
  deviceMedianNs: numOrNull,
  pool: v.nullable(
    v.looseObject({
      reservedHighBytes: num,
      usedHighBytes: num,
      releaseThreshold: v.pipe(v.string(), v.regex(/^\d{1,20}$/, 'expected a decimal integer')),
    }),
  ),
});

const device = v.looseObject({
  index: num,
  name: text,
  totalMemoryBytes: num,
  computeCapability: text,
  multiprocessors: num,
  memoryPools: v.boolean(),
  runtimeVersion: num,
  driverVersion: num,
});

const modeResult = v.pipe(
  v.looseObject({
    mode,
    layout: v.nullable(v.picklist(['dace', 'packed'])),
    label: text,
    build: v.looseObject({ ms: num, cached: v.boolean() }),
    initNs: numOrNull,
    exitNs: numOrNull,
    firstCallNs: numOrNull,
    calls: columns,
    // Additive: present when the columns keep a subsample of the timed calls (docs/profile-schema.md, "Sampling").
    sampling: v.optional(v.looseObject({ calls: num, keptPerProcess: num })),
    eventsOverflowed: v.boolean(),
    runnerOverheadNsPerCall: numOrNull,
    summary: v.looseObject({
      medianNs: numOrNull,
      p10Ns: numOrNull,
      p90Ns: numOrNull,
      meanNs: numOrNull,
      allocsPerCall: numOrNull,
      allocShare: numOrNull,
      minorFaultsPerCall: numOrNull,
    }),
    workspaceBytes: v.record(v.string(), num),
    initBytes: v.optional(v.pipe(num, v.minValue(0, 'expected a byte count'))),
    sameCodeAs: v.optional(v.string()),
    outputChecksums: v.record(v.string(), v.string()),
    gpu: v.optional(gpuMode),
  }),
  v.check((m) => !m.gpu || m.gpu.deviceNs.length === m.calls.totalNs.length, 'gpu.deviceNs must have one entry per timed call'),
  v.check((m) => !m.sampling || m.calls.totalNs.length <= m.sampling.calls, 'sampling.calls must count at least the kept calls'),
);

export const profileResultSchema = v.pipe(
  v.looseObject({
    schema: v.literal(`${PROFILE_SCHEMA_NAME}@${PROFILE_SCHEMA_VERSION}`),
    // Added to profile@1 later (additive): older results lack it.
    createdAt: v.optional(v.pipe(v.string(), v.isoTimestamp('expected an ISO 8601 date and time'))),
    program: v.looseObject({ name: text, file: text, hash: text }),
    machine: v.looseObject({ cpu: text, cores: num, compiler: text, os: text, node: text, othersBusy: v.optional(num) }),
    settings: v.looseObject({
      modes: v.array(mode),
      layout: v.picklist(['dace', 'packed', 'both']),
      calls: num,
      warmup: num,
      processes: num,
      symbols: v.record(v.string(), jsonInteger),
      seed: jsonInteger,
      inputs: v.record(v.string(), v.string()),
    }),
    // Additive: a GPU run on a device, or emulated on the host CPU (--gpu host, whose times are not device times).
    backend: v.optional(v.picklist(['cuda', 'cuda-host'], 'backend must be cuda or cuda-host')),
    // Additive: which expansion ran for each library node (--library-impl).
    libraryNodes: v.optional(
      v.array(
        v.looseObject({
          label: text,
          className: text,
          jsonPath: text,
          implementation: v.picklist(['pure', 'blas']),
          library: v.nullable(text),
        }),
      ),
    ),
    modes: v.pipe(v.array(modeResult), v.minLength(1, 'a result has at least one mode')),
    verification: v.looseObject({
      identical: v.boolean(),
      tolerance: v.optional(num),
      ok: v.boolean(),
      details: v.array(v.looseObject({ kind: v.string(), mode: v.string(), message: v.string() })),
    }),
    notes: v.array(v.string()),
    warnings: v.array(v.string()),
    device: v.optional(device),
  }),
  // The schema above checks every field the renderer reads; JSON nulls stand for the engine's NaNs.
  v.transform((doc) => doc as unknown as ProfileResult),
);
