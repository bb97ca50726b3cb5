/**
 * Scaffold until the app shell lands: connects to whichever host is present, shows what it says, and opens
 * the startup files (`serve FILE…`, `?open=`). It proves the whole path — page, CSP, cookie, WebSocket,
 * service — in a real browser (tests/e2e/smoke.test.ts).
 */
import { useEffect, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { connectHost, HostError, startupFiles } from './host/index.js';

function describe(err: unknown): string {
  if (err instanceof HostError) return [err.file, err.jsonPath, err.message].filter(Boolean).join(': ');
  return err instanceof Error ? err.message : String(err);
}

function App(): React.JSX.Element {
  const [status, setStatus] = useState('connecting…');
  const [opened, setOpened] = useState<string[]>([]);
  useEffect(() => {
    let cancelled = false;
    void (async () => {
      try {
        const client = await connectHost();
        client.on('disconnected', ({ reason }) => setStatus(`disconnected: ${reason}`));
        const env = await client.environment({});
        if (cancelled) return;
        setStatus(`connected: Transient Lab ${env.version} (${env.host} host, ${env.examples.length} examples)`);
        for (const path of startupFiles(env)) {
          try {
            const doc = await client.openFile({ path });
            setOpened((o) => [...o, `${doc.name}: ${doc.stats.sdfgs} SDFG(s), ${doc.stats.transients} transient(s)`]);
          } catch (err) {
            setOpened((o) => [...o, `${path}: ${describe(err)}`]);
          }
        }
      } catch (err) {
        setStatus(`not connected: ${describe(err)}`);
      }
    })();
    return () => {
      cancelled = true;
    };
  }, []);
  return (
    <main>
      <h1>Transient Lab</h1>
      <p data-testid="host-status">{status}</p>
      <ul data-testid="opened">
        {opened.map((line) => (
          <li key={line}>{line}</li>
        ))}
      </ul>
    </main>
  );
}

createRoot(document.getElementById('root')!).render(<App />);
