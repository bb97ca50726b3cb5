/**
 * A WebSocket client made of raw TCP bytes, for the frames the `ws` package will not send: invalid UTF-8 in a
 * text frame, reserved opcodes and bits, unmasked frames, length headers beyond any limit, broken fragment
 * sequences, a socket cut mid-frame. It reads the server's frames back, so a test can see the close code.
 */
import { randomBytes } from 'node:crypto';
import { connect as tcpConnect, type Socket } from 'node:net';

export interface FrameOptions {
  fin?: boolean;
  /** RSV1..3 as bits 0b100, 0b010, 0b001. */
  rsv?: number;
  /** Client frames must be masked (RFC 6455 §5.1); false sends one unmasked. */
  mask?: boolean;
  /** The length the header claims, when it must differ from the payload's (always the 64-bit form). */
  claimedLength?: bigint;
}

export const OP = { continuation: 0x0, text: 0x1, binary: 0x2, reserved3: 0x3, close: 0x8, ping: 0x9, pong: 0xa, reservedB: 0xb } as const;

/** One client frame's bytes. */
export function frame(opcode: number, payload: Uint8Array | string, o: FrameOptions = {}): Buffer {
  const data = typeof payload === 'string' ? Buffer.from(payload, 'utf8') : Buffer.from(payload);
  const mask = o.mask ?? true;
  const head: number[] = [((o.fin ?? true) ? 0x80 : 0) | ((o.rsv ?? 0) << 4) | opcode];
  const maskBit = mask ? 0x80 : 0;
  const length = o.claimedLength ?? BigInt(data.length);
  let ext: Buffer;
  if (o.claimedLength === undefined && length < 126n) {
    head.push(maskBit | Number(length));
    ext = Buffer.alloc(0);
  } else if (o.claimedLength === undefined && length < 65536n) {
    head.push(maskBit | 126);
    ext = Buffer.alloc(2);
    ext.writeUInt16BE(Number(length));
  } else {
    head.push(maskBit | 127);
    ext = Buffer.alloc(8);
    ext.writeBigUInt64BE(length);
  }
  if (!mask) return Buffer.concat([Buffer.from(head), ext, data]);
  const key = randomBytes(4);
  const masked = Buffer.from(data.map((b, i) => b ^ key[i % 4]!));
  return Buffer.concat([Buffer.from(head), ext, key, masked]);
}

/** A close frame's payload: the code, then the reason's bytes. */
export function closePayload(code: number, reason: Uint8Array = new Uint8Array()): Buffer {
  const out = Buffer.alloc(2 + reason.length);
  out.writeUInt16BE(code);
  out.set(reason, 2);
  return out;
}

export interface RawClient {
  socket: Socket;
  /** The HTTP status line of the handshake's answer. */
  status: string;
  send(bytes: Uint8Array): void;
  /** The code of the server's close frame, once it came (null: the connection ended without one). */
  closed: Promise<number | null>;
  /** Text frames received, decoded. */
  texts: string[];
}

export interface RawTarget {
  port: number;
  headers: Record<string, string>;
}

/** Connects and completes the opening handshake with `headers` (Origin and the token cookie of a page). */
export function rawConnect(target: RawTarget, path = '/ws'): Promise<RawClient> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect(target.port, '127.0.0.1');
    socket.on('error', () => {});
    let buf = Buffer.alloc(0);
    let status: string | null = null;
    let closeCode: number | null = null;
    let sawClose = false;
    const texts: string[] = [];
    let resolveClosed!: (code: number | null) => void;
    const closed = new Promise<number | null>((r) => (resolveClosed = r));
    socket.on('close', () => resolveClosed(sawClose ? closeCode : null));
    const parse = (): void => {
      for (;;) {
        if (buf.length < 2) return;
        const opcode = buf[0]! & 0x0f;
        let len = buf[1]! & 0x7f;
        let at = 2;
        if (len === 126) {
          if (buf.length < 4) return;
          len = buf.readUInt16BE(2);
          at = 4;
        } else if (len === 127) {
          if (buf.length < 10) return;
          len = Number(buf.readBigUInt64BE(2));
          at = 10;
        }
        if (buf.length < at + len) return;
        const payload = buf.subarray(at, at + len);
        buf = buf.subarray(at + len);
        if (opcode === OP.close) {
          // Answer as a client does, so that the server closes now rather than after its close timeout.
          sawClose = true;
          closeCode = payload.length >= 2 ? payload.readUInt16BE(0) : null;
          resolveClosed(closeCode);
          socket.end(frame(OP.close, payload.subarray(0, 2)));
        } else if (opcode === OP.text) texts.push(payload.toString('utf8'));
      }
    };
    socket.on('connect', () => {
      const lines = [
        `GET ${path} HTTP/1.1`,
        `Host: 127.0.0.1:${target.port}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        ...Object.entries(target.headers).map(([k, v]) => `${k}: ${v}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      buf = Buffer.concat([buf, chunk]);
      if (status === null) {
        const end = buf.indexOf('\r\n\r\n');
        if (end < 0) return;
        status = buf.subarray(0, buf.indexOf('\r\n')).toString('latin1');
        buf = buf.subarray(end + 4);
        if (!status.includes(' 101 ')) {
          reject(new Error(`handshake refused: ${status}`));
          socket.destroy();
          return;
        }
        resolve({ socket, status, send: (bytes) => void socket.write(bytes), closed, texts });
      }
      parse();
    });
    socket.on('close', () => {
      if (status === null) reject(new Error('the connection closed during the handshake'));
    });
  });
}
