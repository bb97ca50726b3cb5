/** The selection panel's small parts: a term and its value in a fact list, and a ✓/✗ mark. */
export function Fact({ k, children, testid }: { k: string; children: React.ReactNode; testid?: string }): React.JSX.Element {
  return (
    <>
      <dt>{k}</dt>
      <dd data-testid={testid}>{children}</dd>
    </>
  );
}

export function Mark({ ok }: { ok: boolean }): React.JSX.Element {
  return <span className={ok ? 'yes' : 'no'}>{ok ? '✓' : '✗'}</span>;
}
