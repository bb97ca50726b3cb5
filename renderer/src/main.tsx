/**
 * Renderer entry: installs the performance probe, mounts the window (app/App.tsx), and connects to whichever
 * host is there (desktop preload or browser mode's WebSocket); startup files and `?open=` open from there.
 */
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { connect } from './app/connect.js';
import { App } from './app/App.js';
import { installPerfProbe } from './app/perf.js';
import { prewarmLayoutWorker } from './graph/index.js';

installPerfProbe();
prewarmLayoutWorker();
createRoot(document.getElementById('root')!).render(
  <StrictMode>
    <App />
  </StrictMode>,
);
void connect();
