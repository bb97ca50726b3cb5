/** Short notes in the corner (saved, downloaded, opened): they go away on their own. */
import { store } from './state.js';
import { useSelect } from './store.js';
import './toasts.css';

export function Toasts(): React.JSX.Element {
  const toasts = useSelect(store, (s) => s.toasts);
  return (
    <div className="toasts" role="status" aria-live="polite">
      {toasts.map((t) => (
        <div key={t.id} className={`toast toast-${t.kind}`}>
          {t.text}
        </div>
      ))}
    </div>
  );
}
