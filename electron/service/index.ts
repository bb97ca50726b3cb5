/** The service behind the contract, for hosts: see service.ts for how a host builds one. */
export { TransientLabService, type EventSink, type PdfPrinter, type RemoteAccess, type RemoteProfiler, type RunnerHost, type ServiceOptions } from './service.js';
export type { Session } from './session.js';
export { ApprovedFileAccess, RootsFileAccess, type FileAccess, type FilePurpose } from './file-access.js';
export type { ViewBuilders } from './views.js';
