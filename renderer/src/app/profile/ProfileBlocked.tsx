/**
 * The Profile tab's answer when the code generator refuses the program: the first finding, big, with its element,
 * JSON path and what to do (the same verdict as `analyze`'s "Can profile" line). Nothing when it can be profiled.
 */
import { useProfileBlock } from './profile-block.js';

export function ProfileBlocked(): React.JSX.Element | null {
  const blocked = useProfileBlock();
  if (!blocked) return null;
  const more = blocked.findings - 1;
  return (
    <div className="profile-blocked" role="note" data-testid="profile-blocked">
      <div className="profile-blocked-title">This program cannot be profiled</div>
      <div className="profile-blocked-message">{blocked.message}</div>
      <div className="profile-blocked-where">
        {blocked.element} · <code>{blocked.jsonPath}</code>
        {more > 0 ? ` · ${more} more finding${more === 1 ? '' : 's'} (transient-lab analyze lists the first)` : ''}
      </div>
      <div className="hint">{blocked.hint}</div>
    </div>
  );
}
