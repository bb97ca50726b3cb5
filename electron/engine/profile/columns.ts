/**
 * The per-call columns of a profile, defined once: one value per timed call, from the addon's typed arrays
 * (native/src/call_loop.h `CallStatsSink`, native/index.d.ts `CallStats`) through the runner's reduction
 * (samples.ts) to the result's `modes[].calls` (result.ts), its schema (ipc/result-schema.ts), the summary
 * (stats.ts) and the CSV (report/csv.ts). Each of them reads this table; tests/engine/profile/columns.test.ts
 * checks the addon's headers against it.
 *
 * Pure and a leaf: it imports nothing, so result.ts may take its types and the renderer may run it.
 */

/** The JS typed array (and the addon's C type) of a column. */
export const COLUMN_ARRAYS = { Float64Array, Uint32Array } as const;

export const PER_CALL_COLUMNS = [
  {
    name: 'totalNs',
    unit: 'ns',
    array: 'Float64Array',
    cType: 'double',
    csv: 'total_ns',
    mean: 'meanNs',
    description: 'Wall time of the call, measured on the C++ side around __tlab_program (steady_clock).',
  },
  {
    name: 'allocNs',
    unit: 'ns',
    array: 'Float64Array',
    cType: 'double',
    csv: 'alloc_ns',
    mean: 'allocNsPerCall',
    description: 'Time inside the instrumented allocations of the call.',
  },
  {
    name: 'freeNs',
    unit: 'ns',
    array: 'Float64Array',
    cType: 'double',
    csv: 'free_ns',
    mean: 'freeNsPerCall',
    description: 'Time inside the instrumented frees of the call.',
  },
  {
    name: 'allocs',
    unit: 'count',
    array: 'Uint32Array',
    cType: 'uint32_t',
    csv: 'allocs',
    mean: 'allocsPerCall',
    description: 'Instrumented allocations in the call.',
  },
  {
    name: 'frees',
    unit: 'count',
    array: 'Uint32Array',
    cType: 'uint32_t',
    csv: 'frees',
    mean: 'freesPerCall',
    description: 'Instrumented frees in the call.',
  },
  {
    name: 'allocBytes',
    unit: 'bytes',
    array: 'Float64Array',
    cType: 'double',
    csv: 'alloc_bytes',
    mean: 'allocBytesPerCall',
    description: 'Bytes allocated in the call.',
  },
  {
    name: 'minorFaults',
    unit: 'count',
    array: 'Float64Array',
    cType: 'double',
    csv: 'minor_faults',
    mean: 'minorFaultsPerCall',
    description: 'Minor page faults during the call (getrusage RUSAGE_SELF delta).',
  },
] as const satisfies ReadonlyArray<{
  name: string;
  unit: 'ns' | 'count' | 'bytes';
  array: keyof typeof COLUMN_ARRAYS;
  cType: 'double' | 'uint32_t';
  /** The CSV report's header of the column (report/csv.ts, after the row's place). */
  csv: string;
  /** The CallSummary field that holds the column's mean over every timed call: each column's exact sum is kept
   * at any number of calls (VariantTiming.sums), its kept rows may be a subsample (samples.ts). */
  mean: string;
  description: string;
}>;

type PerCallColumnSpec = (typeof PER_CALL_COLUMNS)[number];
export type PerCallColumn = PerCallColumnSpec['name'];

/** A column's entry of the table by name. */
export const PER_CALL_COLUMN = Object.fromEntries(PER_CALL_COLUMNS.map((c) => [c.name, c])) as {
  [C in PerCallColumn]: Extract<PerCallColumnSpec, { name: C }>;
};

interface ColumnArrayTypes {
  Float64Array: Float64Array;
  Uint32Array: Uint32Array;
}

/** The columns as the addon writes them and the runner holds them: one typed array per column, a value a call. */
export type TypedColumns = { [C in PerCallColumn]: ColumnArrayTypes[(typeof PER_CALL_COLUMN)[C]['array']] };

/** The columns in a result (plain JSON arrays) or anything else read per call: one number per kept call. */
export type NumberColumns = Record<PerCallColumn, number[]>;

/** Each column's exact sum over every timed call. */
export type ColumnSums = Record<PerCallColumn, number>;

/** Empty typed columns (nothing timed). */
export function emptyColumns(): TypedColumns {
  return Object.fromEntries(PER_CALL_COLUMNS.map((c) => [c.name, new COLUMN_ARRAYS[c.array](0)])) as unknown as TypedColumns;
}
