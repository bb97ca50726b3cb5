/** The service behind the contract, for hosts: see service.ts for how a host builds one. */
export { TransientLabService, type ServiceOptions } from './service.js';
export type { Session } from './session.js';
