/**
 * A file's last results (last-results.ts): one line in the dock when the file is opened ("Last results for this
 * file: 7 Dec, 14:02 · SCOPED, POOL · 30 × 3 calls  Show"), and the list in the Profile tab while no result is
 * shown.
 */
import { useEffect } from 'react';
import { Icon } from '../Icon.js';
import { useSelect } from '../store.js';
import { compareShelved, describeEntry, hideOffer, installShelf, offers, showShelved } from './last-results.js';
import './last-results.css';

export function LastResultsOffer(): React.JSX.Element | null {
  useEffect(() => installShelf(), []);
  const offer = useSelect(offers, (o) => o);
  const latest = offer.entries[0];
  if (offer.hidden || !latest) return null;
  const d = describeEntry(latest);
  return (
    <div className="last-results-offer" role="status" data-testid="last-results-offer">
      <Icon name="result" size={12} />
      <span className="last-results-text">
        Last results for this file: <b>{d.when}</b> · {d.modes} · {d.calls}
        {offer.entries.length > 1 && <span className="muted"> · {offer.entries.length - 1} earlier</span>}
      </span>
      <button type="button" className="btn btn-small btn-primary" data-testid="last-results-show" onClick={() => showShelved(latest)}>
        Show
      </button>
      {offer.entries.length > 1 && (
        <button type="button" className="btn btn-small" data-testid="last-results-compare" onClick={() => compareShelved(offer.entries)}>
          Compare all {offer.entries.length}
        </button>
      )}
      <button type="button" className="btn btn-ghost btn-small" aria-label="Dismiss" data-testid="last-results-dismiss" onClick={hideOffer}>
        <Icon name="close" size={12} />
      </button>
    </div>
  );
}

export function LastResultsList(): React.JSX.Element | null {
  const entries = useSelect(offers, (o) => o.entries);
  if (entries.length === 0) return null;
  return (
    <div className="last-results-list" data-testid="last-results-list">
      <p className="last-results-head">Last results for this file</p>
      <ul>
        {entries.map((e) => {
          const d = describeEntry(e);
          return (
            <li key={`${e.savedAt}|${e.name}`} data-testid="last-results-entry">
              <span>
                <b>{d.when}</b> · {d.modes} · {d.calls}
              </span>
              <button type="button" className="btn btn-small" onClick={() => showShelved(e)}>
                Show
              </button>
            </li>
          );
        })}
      </ul>
      {entries.length > 1 && (
        <button type="button" className="btn btn-small" onClick={() => compareShelved(entries)}>
          Compare all {entries.length}
        </button>
      )}
    </div>
  );
}
