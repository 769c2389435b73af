// The connection BullMQ talks to Redis through. BullMQ 6 ships no Redis driver of its own (ioredis and
// node-redis are optional peers, and the package installs neither); it adapts any client that has
// Bun's shape: `send(command, args)`, `connected`, `onconnect`/`onclose`, `connect()`, `close()`,
// `duplicate()`. This is that shape over one TCP (or TLS) socket speaking RESP2
// (https://redis.io/docs/latest/develop/reference/protocol-spec/): BullMQ's Bun adapter reads RESP2
// replies (flat arrays for HGETALL, nested arrays for XREAD) as well as RESP3 ones.

import { connect as connectTcp, type Socket } from 'node:net';
import { connect as connectTls } from 'node:tls';

export type RedisReply = string | number | null | Error | RedisReply[];
type Arg = string | number | Buffer;

interface Pending {
  resolve(value: RedisReply): void;
  reject(error: Error): void;
}

const CRLF = Buffer.from('\r\n');

/** A Redis URL's parts: redis://[user:password@]host[:port][/db], rediss:// for TLS. */
export function parseRedisUrl(url: string): { host: string; port: number; tls: boolean; username?: string; password?: string; db: number } {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw Object.assign(new Error(`not a Redis URL: ${JSON.stringify(url)} (redis://host:port)`), { code: 'ERR_SITEMAP_REDIS_URL' });
  }
  if (parsed.protocol !== 'redis:' && parsed.protocol !== 'rediss:') {
    throw Object.assign(new Error(`not a Redis URL: ${JSON.stringify(url)} (redis://host:port or rediss://)`), { code: 'ERR_SITEMAP_REDIS_URL' });
  }
  const db = parsed.pathname.length > 1 ? Number(parsed.pathname.slice(1)) : 0;
  return {
    host: parsed.hostname.replace(/^\[|\]$/g, '') || '127.0.0.1',
    port: parsed.port === '' ? 6379 : Number(parsed.port),
    tls: parsed.protocol === 'rediss:',
    ...(parsed.username !== '' ? { username: decodeURIComponent(parsed.username) } : {}),
    ...(parsed.password !== '' ? { password: decodeURIComponent(parsed.password) } : {}),
    db: Number.isInteger(db) ? db : 0,
  };
}

export class RespConnection {
  connected = false;
  onconnect: (() => void) | undefined;
  onclose: ((error?: Error) => void) | undefined;
  private socket: Socket | undefined;
  private readonly pending: Pending[] = [];
  private buffer: Buffer = Buffer.alloc(0);
  private closing = false;

  constructor(readonly url: string) {}

  async connect(): Promise<void> {
    if (this.connected) return;
    const target = parseRedisUrl(this.url);
    this.closing = false;
    const socket = target.tls ? connectTls({ host: target.host, port: target.port, servername: target.host }) : connectTcp({ host: target.host, port: target.port });
    this.socket = socket;
    socket.setNoDelay(true);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
    await new Promise<void>((resolve, reject) => {
      const fail = (error: Error): void => {
        socket.destroy();
        reject(error);
      };
      socket.once('error', fail);
      socket.once(target.tls ? 'secureConnect' : 'connect', () => {
        socket.off('error', fail);
        resolve();
      });
    }).catch((error: Error) => {
      this.socket = undefined;
      this.onclose?.(error);
      throw error;
    });
    let lastError: Error | undefined;
    socket.on('error', (error) => (lastError = error));
    socket.on('close', () => this.closed(lastError));
    this.connected = true;
    // AUTH and SELECT go first, before anything the caller sends after connect().
    const setup: Promise<RedisReply>[] = [];
    if (target.password !== undefined) setup.push(this.send('AUTH', target.username !== undefined ? [target.username, target.password] : [target.password]));
    if (target.db !== 0) setup.push(this.send('SELECT', [target.db]));
    try {
      await Promise.all(setup);
    } catch (error) {
      this.close();
      throw error;
    }
    this.onconnect?.();
  }

  send(command: string, args: readonly Arg[] = []): Promise<RedisReply> {
    const socket = this.socket;
    if (!this.connected || socket === undefined) return Promise.reject(new Error('Connection closed'));
    const parts: Buffer[] = [Buffer.from(`*${args.length + 1}\r\n$${Buffer.byteLength(command)}\r\n${command}\r\n`)];
    for (const arg of args) {
      const bytes = Buffer.isBuffer(arg) ? arg : Buffer.from(String(arg));
      parts.push(Buffer.from(`$${bytes.length}\r\n`), bytes, CRLF);
    }
    return new Promise((resolve, reject) => {
      this.pending.push({ resolve, reject });
      socket.write(Buffer.concat(parts));
    });
  }

  close(): void {
    this.closing = true;
    this.socket?.destroy();
  }

  async duplicate(): Promise<RespConnection> {
    return new RespConnection(this.url);
  }

  private closed(error: Error | undefined): void {
    if (!this.connected) return;
    this.connected = false;
    this.socket = undefined;
    this.buffer = Buffer.alloc(0);
    for (const waiting of this.pending.splice(0)) waiting.reject(new Error('Connection closed'));
    this.onclose?.(this.closing ? undefined : (error ?? new Error('Connection closed by the server')));
  }

  private receive(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let offset = 0;
    while (offset < this.buffer.length) {
      const parsed = parseReply(this.buffer, offset);
      if (parsed === undefined) break;
      offset = parsed.end;
      const waiting = this.pending.shift();
      if (waiting === undefined) continue;
      if (parsed.value instanceof Error) waiting.reject(parsed.value);
      else waiting.resolve(parsed.value);
    }
    this.buffer = offset === this.buffer.length ? Buffer.alloc(0) : this.buffer.subarray(offset);
  }
}

/** One RESP2 reply from `offset`, or undefined when its bytes have not all arrived. */
function parseReply(buffer: Buffer, offset: number): { value: RedisReply; end: number } | undefined {
  const lineEnd = buffer.indexOf(CRLF, offset);
  if (lineEnd < 0) return undefined;
  const type = buffer[offset];
  const line = buffer.toString('utf8', offset + 1, lineEnd);
  const next = lineEnd + 2;
  switch (type) {
    case 0x2b: // + simple string
      return { value: line, end: next };
    case 0x2d: // - error: a rejection at the top, an Error in place inside an array (EXEC)
      return { value: new Error(line), end: next };
    case 0x3a: // : integer
      return { value: Number(line), end: next };
    case 0x24: {
      // $ bulk string
      const length = Number(line);
      if (length < 0) return { value: null, end: next };
      if (buffer.length < next + length + 2) return undefined;
      return { value: buffer.toString('utf8', next, next + length), end: next + length + 2 };
    }
    case 0x2a: {
      // * array
      const count = Number(line);
      if (count < 0) return { value: null, end: next };
      const items: RedisReply[] = [];
      let at = next;
      for (let i = 0; i < count; i++) {
        const item = parseReply(buffer, at);
        if (item === undefined) return undefined;
        items.push(item.value);
        at = item.end;
      }
      return { value: items, end: at };
    }
    default:
      throw new Error(`unexpected Redis reply type ${JSON.stringify(String.fromCharCode(type ?? 0))}`);
  }
}

/** Whether Redis answers at `url` within `timeoutMs`: a PING, so that a command fails at once, not after BullMQ's endless reconnects. */
export async function pingRedis(url: string, timeoutMs = 5000): Promise<void> {
  const connection = new RespConnection(url);
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      (async () => {
        await connection.connect();
        await connection.send('PING');
      })(),
      new Promise((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${timeoutMs / 1000} s`)), timeoutMs);
      }),
    ]);
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw Object.assign(new Error(`cannot reach Redis at ${url}: ${reason}`), { code: 'ERR_SITEMAP_REDIS' });
  } finally {
    clearTimeout(timer);
    connection.close();
  }
}
