/**
 * A failure people can act on: what we were doing, the engine's message, the file and the JSON path inside it,
 * what to do, and "copy details" for a bug report. Never a blank page.
 */
import { useEffect, useRef, useState } from 'react';
import type { ContractError } from '../../../electron/ipc/contract.js';
import { dismissError } from './actions.js';
import { Icon } from './Icon.js';
import type { ErrorReport } from './state.js';
import { store } from './state.js';
import './dialog.css';
import './error-panel.css';

const ADVICE: Record<ContractError['kind'], string> = {
  input:
    'The file could not be read as an SDFG. Check that it is the .sdfg/.sdfgz DaCe wrote (not a pickle or a Git LFS pointer), or open another file.',
  unsupported: 'The file is valid, but it uses something Transient Lab does not handle yet. The message names it.',
  usage: 'The request was not valid. The message names the field.',
  build: 'The generated program did not compile. The compiler output is below.',
  run: 'The program failed while running. The details say in which mode.',
  cancelled: 'The job was cancelled.',
  refused: 'The host refused this. In browser mode, files must be inside the folders given to `serve --root`.',
  transport: 'The host did not answer. If `transient-lab serve` stopped, restart it and open the URL it prints.',
  internal: 'This is a bug in Transient Lab. Please copy the details into a bug report.',
};

/** What to do: by kind, except a missing file, which is an `input` error with a different remedy. */
function adviceFor(e: ContractError): string {
  if (e.kind === 'input' && /does not exist|no such file|ENOENT/i.test(e.message)) {
    return 'Check the name and the folder: in browser mode, paths (and ?open=) are relative to the first `serve --root` folder. Open… browses the folders the host allows.';
  }
  return ADVICE[e.kind];
}

function errorText(r: ErrorReport): string {
  const e = r.error;
  return [
    `${r.title}`,
    `while: ${r.context}`,
    `kind: ${e.kind}`,
    `message: ${e.message}`,
    ...(e.file ? [`file: ${e.file}`] : []),
    ...(e.jsonPath ? [`JSON path: ${e.jsonPath}`] : []),
    ...e.details.map((d) => `  ${d}`),
  ].join('\n');
}

export function ErrorPanel({ report }: { report: ErrorReport }): React.JSX.Element {
  const e = report.error;
  const [copied, setCopied] = useState(false);
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => close.current?.focus(), [report]);
  const copy = async (): Promise<void> => {
    const text = errorText(report);
    try {
      await navigator.clipboard.writeText(text);
    } catch {
      // Clipboard API needs focus and a secure context; fall back to a selection copy.
      const ta = document.createElement('textarea');
      ta.value = text;
      document.body.appendChild(ta);
      ta.select();
      document.execCommand('copy');
      ta.remove();
    }
    setCopied(true);
  };
  return (
    <div className="modal-backdrop" onPointerDown={(ev) => ev.target === ev.currentTarget && dismissError()}>
      <section className="error-panel" role="alertdialog" aria-labelledby="error-title" data-testid="error-panel">
        <header className="error-head">
          <Icon name="warn" size={18} />
          <h2 id="error-title">{report.title}</h2>
        </header>
        <p className="error-message" data-testid="error-message">
          {e.message}
        </p>
        <dl className="error-facts">
          {e.file && (
            <>
              <dt>File</dt>
              <dd data-testid="error-file">{e.file}</dd>
            </>
          )}
          {e.jsonPath && (
            <>
              <dt>JSON path</dt>
              <dd data-testid="error-jsonpath">
                <code>{e.jsonPath}</code>
              </dd>
            </>
          )}
          <dt>What to do</dt>
          <dd>{adviceFor(e)}</dd>
        </dl>
        {e.details.length > 0 && <pre className="error-details">{e.details.join('\n')}</pre>}
        <footer className="error-actions">
          <button type="button" className="btn" data-testid="error-copy" onClick={() => void copy()}>
            <Icon name={copied ? 'check' : 'copy'} /> {copied ? 'Copied' : 'Copy details'}
          </button>
          <button type="button" className="btn" onClick={() => store.set({ error: null, dialog: 'open' })}>
            <Icon name="open" /> Open another file…
          </button>
          <button type="button" className="btn btn-primary" ref={close} data-testid="error-dismiss" onClick={dismissError}>
            Dismiss
          </button>
        </footer>
      </section>
    </div>
  );
}
