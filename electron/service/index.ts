/** The service behind the contract, for hosts: see service.ts for how a host builds one. */
export { TransientLabService, type ServiceOptions } from './service.js';
export type { PdfPrinter, RemoteAccess, RemoteProfiler, RunnerHost } from './context.js';
export type { Session } from './session.js';
export type { ViewBuilders } from './views.js';
