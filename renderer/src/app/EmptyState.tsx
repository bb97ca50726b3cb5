/**
 * What a fresh window shows: "Open an SDFG", the bundled examples as one-click cards, and the other ways in
 * (the host's folders, an upload, drag and drop, a result file).
 */
import { useRef } from 'react';
import { openExample, openLocalFiles } from './open/index.js';
import { Icon } from './Icon.js';
import { store } from './state.js';
import { useSelect } from './store.js';
import './empty-state.css';

export function UploadButton({ label, accept, testid }: { label: string; accept: string; testid: string }): React.JSX.Element {
  const input = useRef<HTMLInputElement>(null);
  return (
    <>
      <button type="button" className="btn" data-testid={testid} onClick={() => input.current?.click()}>
        <Icon name="upload" /> {label}
      </button>
      <input
        ref={input}
        type="file"
        accept={accept}
        multiple
        hidden
        data-testid={`${testid}-input`}
        onChange={(e) => {
          const files = [...(e.target.files ?? [])];
          e.target.value = '';
          void openLocalFiles(files);
        }}
      />
    </>
  );
}

export function EmptyState(): React.JSX.Element {
  const env = useSelect(store, (s) => s.env);
  const connected = useSelect(store, (s) => s.connection.status === 'ready');
  const examples = env?.examples ?? [];
  return (
    <main className="empty" data-testid="empty-state">
      <div className="empty-inner">
        <h1 className="empty-title">Open an SDFG</h1>
        <p className="empty-lead">
          See each transient's lifetime and where it sits in the workspace, then time SCOPED, PERSISTENT, POOL and EXTERNAL on your own
          program.
        </p>
        {examples.length > 0 && (
          <section className="cards" aria-label="Bundled examples">
            {examples.map((ex) => (
              <button
                type="button"
                key={ex.id}
                className="card"
                data-testid={`example-${ex.id}`}
                disabled={!connected}
                onClick={() => void openExample(ex.id)}
              >
                <span className="card-title">{ex.title}</span>
                <span className="card-text">
                  {ex.description.split('`').map((part, i) => (i % 2 ? <code key={i}>{part}</code> : part))}
                </span>
                {Object.keys(ex.symbols).length > 0 && (
                  <span className="card-meta">
                    {Object.entries(ex.symbols)
                      .map(([k, v]) => `${k}=${v}`)
                      .join('  ')}
                  </span>
                )}
              </button>
            ))}
          </section>
        )}
        <div className="empty-actions">
          <button
            type="button"
            className="btn btn-primary"
            data-testid="empty-browse"
            disabled={!connected}
            onClick={() => store.set({ dialog: 'open' })}
          >
            <Icon name="folder" /> Browse {env?.host === 'browser' ? 'the server' : 'files'}…
          </button>
          <UploadButton label="Upload a file…" accept=".sdfg,.sdfgz,.json" testid="empty-upload" />
        </div>
        <p className="empty-hint">
          Or drop an <code>.sdfg</code>, <code>.sdfgz</code> or result <code>.json</code> anywhere on this window. <kbd>Ctrl</kbd>+
          <kbd>O</kbd> opens the file browser.
        </p>
        {env && env.host === 'browser' && env.roots.length > 0 && (
          <p className="empty-roots">
            Files are read from {env.roots.length === 1 ? 'the folder' : 'the folders'} <code>{env.roots.join(', ')}</code> (
            <code>serve --root</code>).
          </p>
        )}
      </div>
    </main>
  );
}
