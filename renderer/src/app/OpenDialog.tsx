/**
 * Browser mode's open dialog: the host's allowed folders (`listFolder`), SDFGs and DaCe build folders (one entry
 * each, docs/dace-folders.md) open as documents and result files as results; plus upload from this computer. The desktop host refuses `listFolder` (it opens by path through
 * its native File → Open…), so there the dialog points to that and keeps only the upload.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { FolderEntry, FolderListing } from '../../../electron/ipc/contract.js';
import { formatBytes } from '../../../electron/engine/view/public.js';
import { asContractError } from './actions.js';
import { openPath } from './open/index.js';
import { UploadButton } from './EmptyState.js';
import { Icon } from './Icon.js';
import { store } from './state.js';
import { EMPTY, useSelect } from './store.js';
import './dialog.css';
import './open-dialog.css';

const ICON: Record<FolderEntry['kind'], string> = { folder: 'folder', sdfg: 'file', result: 'result', dace: 'chip', other: 'file' };
const LABEL: Record<FolderEntry['kind'], string> = { folder: '', sdfg: 'SDFG', result: 'result', dace: 'DaCe build', other: '' };

export function OpenDialog(): React.JSX.Element {
  const client = useSelect(store, (s) => s.client);
  const roots = useSelect(store, (s) => s.env?.roots ?? EMPTY);
  const desktop = useSelect(store, (s) => s.env?.host === 'electron');
  const [listing, setListing] = useState<FolderListing | null>(null);
  const [error, setError] = useState<string | null>(null);
  const [filter, setFilter] = useState('');
  const [active, setActive] = useState(0);
  const filterRef = useRef<HTMLInputElement>(null);

  // Only the latest listing lands: the first root's listing (a big folder) can answer after a second root was
  // chosen, and must not replace it.
  const latest = useRef(0);
  const go = async (path: string | null): Promise<void> => {
    if (!client) return;
    const seq = ++latest.current;
    setError(null);
    try {
      const l = await client.listFolder({ path });
      if (seq !== latest.current) return;
      setListing(l);
      setFilter('');
      setActive(0);
    } catch (err) {
      if (seq !== latest.current) return;
      setError(asContractError(err).message);
    }
  };

  useEffect(() => {
    if (!desktop) void go(null);
    filterRef.current?.focus();
    // The first listing only; navigation calls go() itself.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [client]);

  const entries = useMemo(() => {
    const q = filter.trim().toLowerCase();
    return (listing?.entries ?? []).filter((e) => !q || e.name.toLowerCase().includes(q));
  }, [listing, filter]);

  const choose = (e: FolderEntry): void => {
    if (e.kind === 'folder') void go(e.path);
    else if (e.kind === 'sdfg' || e.kind === 'dace') void openPath(e.path);
    else if (e.kind === 'result') void openPath(e.path);
  };

  const close = (): void => store.set({ dialog: null });

  return (
    <div className="modal-backdrop" onPointerDown={(ev) => ev.target === ev.currentTarget && close()}>
      <section
        className="dialog open-dialog"
        role="dialog"
        aria-label="Open"
        data-testid="open-dialog"
        onKeyDown={(ev) => {
          if (ev.key === 'Escape') close();
          else if (ev.key === 'ArrowDown') setActive((a) => Math.min(entries.length - 1, a + 1));
          else if (ev.key === 'ArrowUp') setActive((a) => Math.max(0, a - 1));
          else if (ev.key === 'Enter' && entries[active]) choose(entries[active]);
          else if (ev.key === 'Backspace' && filter === '' && listing?.parent) void go(listing.parent);
          else return;
          ev.preventDefault();
        }}
      >
        <header className="dialog-head">
          <h2>Open</h2>
          <button type="button" className="btn btn-icon" aria-label="Close" onClick={close}>
            <Icon name="close" />
          </button>
        </header>
        {desktop ? (
          <p className="dialog-note" data-testid="open-desktop-note">
            File → Open… (Ctrl+O) opens an SDFG from anywhere on this computer, File → Open DaCe Build Folder… a `.dacecache` folder, File →
            Open Result… a result; dropping a file or a DaCe build folder on the window works too. Or upload an SDFG here.
          </p>
        ) : (
          <>
            <div className="dialog-path">
              <button
                type="button"
                className="btn btn-ghost"
                disabled={!listing?.parent}
                onClick={() => listing?.parent && void go(listing.parent)}
                aria-label="Up one folder"
                data-testid="open-up"
              >
                <Icon name="up" />
              </button>
              <code className="path-text" title={listing?.path}>
                {listing?.path ?? '…'}
              </code>
              {roots.length > 1 && (
                <select aria-label="Root folder" onChange={(e) => void go(e.target.value)} value="">
                  <option value="" disabled>
                    roots…
                  </option>
                  {roots.map((r) => (
                    <option key={r} value={r}>
                      {r}
                    </option>
                  ))}
                </select>
              )}
            </div>
            <input
              ref={filterRef}
              className="dialog-filter"
              placeholder="Filter this folder"
              value={filter}
              onChange={(e) => (setFilter(e.target.value), setActive(0))}
              data-testid="open-filter"
            />
            <ul className="file-list" role="listbox" aria-label="Files">
              {error && <li className="file-error">{error}</li>}
              {entries.map((e, i) => (
                <li
                  key={e.path}
                  role="option"
                  aria-selected={i === active}
                  className={`file-row${i === active ? ' active' : ''}${e.kind === 'other' ? ' dim' : ''}`}
                  data-testid="open-entry"
                  data-name={e.name}
                  data-kind={e.kind}
                  title={e.kind === 'dace' ? `${e.name}: a DaCe build folder; opens the SDFG DaCe saved in it` : undefined}
                  onPointerEnter={() => setActive(i)}
                  onClick={() => choose(e)}
                >
                  <Icon name={ICON[e.kind]} />
                  <span className="file-row-name">{e.name}</span>
                  <span className="file-row-kind">{LABEL[e.kind]}</span>
                  <span className="file-row-size">{e.bytes === null ? '' : formatBytes(e.bytes)}</span>
                </li>
              ))}
              {listing && entries.length === 0 && !error && (
                <li className="file-empty">Nothing here{filter ? ' matches the filter' : ''}.</li>
              )}
              {listing?.truncated && <li className="file-empty">More entries exist than the host lists: filter by name.</li>}
            </ul>
          </>
        )}
        <footer className="dialog-foot">
          <span className="muted">SDFGs and DaCe build folders open as documents; result files open in the Profile and Compare tabs.</span>
          <UploadButton label="Upload from this computer…" accept=".sdfg,.sdfgz,.json" testid="open-upload" />
        </footer>
      </section>
    </div>
  );
}
