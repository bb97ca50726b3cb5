export { profile } from './profile.js';
export type { ProfileOptions } from './options.js';
// The steps of a profile run, for hosts that drive them one by one (profile.ts shows the order).
// What a process host implements (electron/runner/host-node.ts is the Node one).
