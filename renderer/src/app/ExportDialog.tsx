/**
 * Export report…: the host writes the report with the engine's report writer (`exportReport`), the dialog
 * previews the HTML in a sandboxed iframe (scripts only: an opaque origin with no access to this page, and the
 * page's own CSP, which allows exactly the report's runtime and stylesheet by hash), then downloads the chosen
 * format. Browser mode saves the download on the user's machine; the desktop app turns it into its Save dialog.
 */
import { useEffect, useMemo, useState } from 'react';
import type { ExportReportRequest, ReportExport } from '../../../electron/ipc/contract.js';
import { asContractError } from './actions.js';
import { downloadFiles } from './results.js';
import { Icon } from './Icon.js';
import { store } from './state.js';
import { EMPTY, useSelect } from './store.js';
import './dialog.css';
import './export-dialog.css';

type Format = ExportReportRequest['format'];

const FORMATS: Array<[Format, string]> = [
  ['html', 'HTML: one interactive, self-contained file'],
  ['pdf', 'PDF: printed by Chromium on the host'],
  ['csv', 'CSV: per-call rows and a per-mode summary'],
  ['json', 'JSON: the result itself'],
];

export function ExportDialog(): React.JSX.Element {
  const client = useSelect(store, (s) => s.client);
  const result = useSelect(store, (s) => s.result);
  const compare = useSelect(store, (s) => s.compare ?? EMPTY);
  const docId = useSelect(store, (s) => s.doc?.doc ?? null);
  const [format, setFormat] = useState<Format>('html');
  const [comparison, setComparison] = useState(false);
  const [preview, setPreview] = useState<ReportExport | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);

  const canCompare = compare.length > 1;
  const request = useMemo((): Omit<ExportReportRequest, 'format'> | null => {
    const list = comparison && canCompare ? compare : result ? [result] : [];
    if (!list.length) return null;
    return { results: list.map((r) => ({ label: r.name.slice(0, 200) || 'result', result: r.result })), doc: docId };
  }, [comparison, canCompare, compare, result, docId]);

  useEffect(() => {
    if (!client || !request) return;
    let live = true;
    setPreview(null);
    setError(null);
    client.exportReport({ ...request, format: 'html' }).then(
      (r) => live && setPreview(r),
      (err: unknown) => live && setError(asContractError(err).message),
    );
    return () => {
      live = false;
    };
  }, [client, request]);

  const html = useMemo(() => (preview ? new TextDecoder().decode(preview.files[0]!.bytes) : null), [preview]);
  const close = (): void => store.set({ dialog: null });

  const save = async (): Promise<void> => {
    if (!client || !request) return;
    setBusy(true);
    setError(null);
    try {
      const out = format === 'html' && preview ? preview : await client.exportReport({ ...request, format });
      downloadFiles(out.files);
      close();
    } catch (err) {
      setError(asContractError(err).message);
    } finally {
      setBusy(false);
    }
  };

  return (
    <div className="modal-backdrop" onPointerDown={(ev) => ev.target === ev.currentTarget && close()}>
      <section
        className="dialog export-dialog"
        role="dialog"
        aria-label="Export report"
        data-testid="export-dialog"
        onKeyDown={(ev) => ev.key === 'Escape' && close()}
      >
        <header className="dialog-head">
          <h2>Export report</h2>
          <button type="button" className="btn btn-icon" aria-label="Close" onClick={close}>
            <Icon name="close" />
          </button>
        </header>
        {!request ? (
          <p className="dialog-note">No result to export yet: run a profile or open a result first.</p>
        ) : (
          <>
            <div className="export-options">
              <label>
                Format{' '}
                <select value={format} onChange={(e) => setFormat(e.target.value as Format)} data-testid="export-format">
                  {FORMATS.map(([f, label]) => (
                    <option key={f} value={f} disabled={f === 'json' && request.results.length > 1}>
                      {label}
                    </option>
                  ))}
                </select>
              </label>
              {canCompare && (
                <label>
                  <input
                    type="checkbox"
                    checked={comparison}
                    onChange={(e) => setComparison(e.target.checked)}
                    data-testid="export-comparison"
                  />{' '}
                  Compare the {compare.length} results of the Compare tab
                </label>
              )}
            </div>
            {preview && (
              <p className="dialog-note" data-testid="export-analysis-note">
                {preview.analysisNote}
              </p>
            )}
            <div className="export-preview">
              {html ? (
                <iframe title="Report preview" sandbox="allow-scripts" srcDoc={html} data-testid="export-preview" />
              ) : (
                !error && <p className="dialog-note">Writing the preview…</p>
              )}
            </div>
            {error && (
              <p className="file-error" role="alert" data-testid="export-error">
                {error}
              </p>
            )}
            <footer className="dialog-foot">
              <button type="button" className="btn" onClick={close}>
                Cancel
              </button>
              <button
                type="button"
                className="btn btn-primary"
                disabled={busy || (format === 'json' && request.results.length > 1)}
                onClick={() => void save()}
                data-testid="export-save"
              >
                <Icon name="export" /> {busy ? 'Writing…' : `Save ${format.toUpperCase()}`}
              </button>
            </footer>
          </>
        )}
      </section>
    </div>
  );
}
