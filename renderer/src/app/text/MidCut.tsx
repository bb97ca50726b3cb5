/**
 * Names cut in the middle, not at the end. Generated names share long prefixes (velocity_tendencies' 2,862
 * symbols all start `__f2dace_`; its transients `p_diag_0.__f2dace_SA_…`) and differ at the end or in the middle,
 * so an ellipsis at the end made whole lists read the same. The browser does the cutting (CSS, no measuring in
 * React): the parts marked `keep` never shrink, the others shrink with an ellipsis, and a name that fits is shown
 * whole. The full name goes in the title.
 */
import './mid-cut.css';
import type { CutPart } from './cut.js';

export { fileNameParts, headTail, matchParts, type CutPart } from './cut.js';

export function MidCut({
  parts,
  className,
  title,
  testid,
}: {
  parts: CutPart[];
  className?: string;
  title?: string;
  testid?: string;
}): React.JSX.Element {
  return (
    <span className={`mid-cut${className ? ` ${className}` : ''}`} title={title} data-testid={testid}>
      {parts.map((p, i) =>
        p.mark ? (
          <mark key={i} className="mid-keep mid-mark">
            {p.text}
          </mark>
        ) : (
          <span key={i} className={p.keep || p.text.length < 3 ? 'mid-keep' : 'mid-part'}>
            {p.text}
          </span>
        ),
      )}
    </span>
  );
}
