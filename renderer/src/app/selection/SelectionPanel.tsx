/**
 * Right panel: everything known about the selection, in words and numbers — a transient (TransientPanel.tsx), a
 * graph element (ElementPanel.tsx), or with nothing selected the program at a glance (Overview.tsx).
 */
import { useDeferredValue } from 'react';
import { store } from '../state.js';
import { useSelect } from '../store.js';
import { ElementPanel } from './ElementPanel.js';
import { rowOf } from './facts.js';
import { Overview } from './Overview.js';
import { TransientPanel } from './TransientPanel.js';
import './selection.css';

export function SelectionPanel(): React.JSX.Element {
  const sel = useSelect(store, (s) => s.selection);
  const view = useDeferredValue(useSelect(store, (s) => s.analysis));
  const doc = useSelect(store, (s) => s.doc);
  const row = view && sel?.transient ? rowOf(view, sel.transient) : -1;
  return (
    <aside className="selection" aria-label="Selection" data-testid="selection-panel">
      <div className="panel-head">
        <span>Selection</span>
        {sel && (
          <button type="button" className="btn btn-ghost btn-small" onClick={() => store.set({ selection: null })} title="Clear (Esc)">
            clear
          </button>
        )}
      </div>
      {view && row >= 0 ? (
        <TransientPanel view={view} row={row} />
      ) : sel?.element ? (
        <ElementPanel sel={sel.element} view={view} />
      ) : (
        <div className="sel-empty">
          <p>Select a transient in the outline, the graph, the table or a chart to see everything known about it.</p>
          {view && doc && <Overview view={view} />}
        </div>
      )}
    </aside>
  );
}
