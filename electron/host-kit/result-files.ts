/**
 * Result files (`transient-lab/profile@1`): read with a clear verdict on anything else (a newer schema, an
 * analysis document, a foreign JSON), written atomically and never over a file that is not a result.
 */
import { readFile, stat } from 'node:fs/promises';
import * as v from 'valibot';
import { TlabError } from '../engine/errors.js';
import { writeFileAtomic } from '../engine/io/atomic-write.js';
import type { ProfileResult } from '../engine/profile/result.js';
import { embeddedResults, looksLikeHtml } from '../engine/report/embedded.js';
import { ContractFailure, issuePath } from '../ipc/errors.js';
import { PROFILE_SCHEMA_NAME, PROFILE_SCHEMA_VERSION, profileResultSchema } from '../ipc/result-schema.js';

const CURRENT = `${PROFILE_SCHEMA_NAME}@${PROFILE_SCHEMA_VERSION}`;

/** Checks a parsed document and names the problem with its JSON path. */
function checkProfileDocument(doc: unknown, file: string): ProfileResult {
  if (typeof doc !== 'object' || doc === null || Array.isArray(doc)) {
    throw new TlabError('input', 'not a Transient Lab result file: the JSON is not an object', { file, jsonPath: '$' });
  }
  const schema = (doc as Record<string, unknown>).schema;
  if (typeof schema !== 'string') {
    throw new TlabError('input', `not a Transient Lab result file: it has no "schema" field (results start with "schema": "${CURRENT}")`, {
      file,
      jsonPath: '$.schema',
    });
  }
  const versioned = /^transient-lab\/profile@(\d+)$/.exec(schema);
  if (versioned && Number(versioned[1]) > PROFILE_SCHEMA_VERSION) {
    throw new TlabError(
      'input',
      `written by a newer Transient Lab (${schema}); this version reads ${CURRENT}: update Transient Lab to open it`,
      { file, jsonPath: '$.schema' },
    );
  }
  if (schema.startsWith('transient-lab/analysis@')) {
    throw new TlabError('input', `this is an analysis document (${schema}, from \`analyze --json\`), not a profile result`, {
      file,
      jsonPath: '$.schema',
    });
  }
  if (schema !== CURRENT) {
    throw new TlabError('input', `not a Transient Lab result file: schema "${schema.slice(0, 80)}" (expected ${CURRENT})`, {
      file,
      jsonPath: '$.schema',
    });
  }
  const parsed = v.safeParse(profileResultSchema, doc);
  if (!parsed.success) {
    const issue = parsed.issues[0];
    throw new TlabError('input', `malformed ${CURRENT} document: ${issue.message}`, { file, jsonPath: issuePath(issue) });
  }
  return parsed.output;
}

/**
 * Every result a file holds, each checked: a `transient-lab/profile@1` JSON file holds one; an HTML report
 * written by Transient Lab holds the results it was made from (the first is the reference), each with its label.
 */
export function parseResultDocuments(bytes: Uint8Array, file: string): Array<{ label: string | null; result: ProfileResult }> {
  if (looksLikeHtml(bytes)) {
    let text: string;
    try {
      text = new TextDecoder('utf-8', { fatal: true }).decode(bytes);
    } catch {
      throw new TlabError('input', 'not a Transient Lab report: the HTML is not UTF-8 text', { file });
    }
    return embeddedResults(text, file).map(({ label, doc }) => ({ label, result: checkProfileDocument(doc, file) }));
  }
  let doc: unknown;
  try {
    doc = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch (err) {
    throw new TlabError(
      'input',
      `not a Transient Lab result file: ${err instanceof SyntaxError ? `invalid JSON (${err.message})` : 'not UTF-8 text'}`,
      { file },
    );
  }
  return [{ label: null, result: checkProfileDocument(doc, file) }];
}

/** The result of a result file, or the first (reference) result of an HTML report. */
export function parseProfileBytes(bytes: Uint8Array, file: string): ProfileResult {
  return parseResultDocuments(bytes, file)[0]!.result;
}

export async function readProfileFile(path: string, maxBytes: number): Promise<ProfileResult> {
  const st = await stat(path);
  if (st.size > maxBytes)
    throw new TlabError('input', `the file is ${st.size} bytes, more than the host reads (${maxBytes})`, { file: path });
  return parseProfileBytes(await readFile(path), path);
}

/** Writes `result` to `target` (already allowed by the file policy) atomically: a failure keeps the old file. */
export async function writeProfileFile(target: string, result: ProfileResult, maxExistingBytes: number): Promise<void> {
  if (!target.toLowerCase().endsWith('.json')) {
    throw new ContractFailure('usage', 'a result file name must end in .json', { file: target });
  }
  try {
    await readProfileFile(target, maxExistingBytes);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT')
      throw new ContractFailure('refused', 'a file of that name exists and is not a Transient Lab result: choose another name', {
        file: target,
      });
  }
  await writeFileAtomic(target, `${JSON.stringify(result, null, 1)}\n`, { mode: 0o644 });
}
