/** One section of `npm run bench` (bench/run.ts lists them): its own file, so that the sections and the runner
 * that lists them import it without importing each other. */
export interface BenchSection {
  name: string;
  description: string;
  /** Returns the section's JSON record and the lines of its stdout summary. */
  run(): Promise<{ result: object; summary: string[] }>;
}
