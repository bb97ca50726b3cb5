/**
 * The child side of a supervised child (child.ts): talks to its parent through Electron's `process.parentPort`
 * when it runs as a utilityProcess, or through Node's IPC channel (`process.send`) when it was forked. Only the
 * transport differs; the messages are the same structured clones.
 */
export interface ParentTransport<In, Out> {
  send(msg: Out): void;
  onMessage(handler: (msg: In) => void): void;
}

/** What the children read of Electron's `process.parentPort` (checked against electron.d.ts in shell/seam.ts). */
export interface ParentPortLike {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

export function parentTransport<In, Out>(): ParentTransport<In, Out> {
  const parentPort = (process as unknown as { parentPort?: ParentPortLike }).parentPort;
  if (parentPort) {
    return {
      send: (msg) => parentPort.postMessage(msg),
      onMessage: (handler) => parentPort.on('message', (event) => handler(event.data as In)),
    };
  }
  if (process.send) {
    return {
      send: (msg) => void process.send!(msg),
      onMessage: (handler) => process.on('message', (msg) => handler(msg as In)),
    };
  }
  throw new Error(`${process.argv[1] ?? 'this entry'} must run as a forked child or an Electron utility process`);
}
