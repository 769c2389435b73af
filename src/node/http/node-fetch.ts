// The default transport: a WHATWG-`fetch`-shaped GET over `node:http` / `node:https`, not Node's fetch
// (undici): under backpressure undici pauses its parser, and a server closing the connection then
// kills the process with an uncatchable assertion (nodejs/undici#5360, fixed only for Node >= 22.19);
// `node:http` pauses the socket instead. Like fetch it undoes Content-Encoding (gzip, deflate, br) and
// rejects with `TypeError('fetch failed', { cause })`; it never follows redirects (the client does),
// caps the bytes received before decoding (`maxEncodedBytes`), and avoids the global `Headers` and
// `Response`, whose first use loads undici (27-31 ms).

import type { Agent as HttpAgent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { LookupFunction } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { createBrotliDecompress, createInflate, createInflateRaw } from 'node:zlib';
import { plural } from '../../core/errors.js';
import { gunzipped } from '../decompress.js';
import type { FetchFunction } from './client.js';

const DECODE_CHUNK = 256 * 1024;
/** The largest response head read: Chromium's (HttpStreamParser kMaxHeaderBufSize), not Node's 16 KiB. */
const MAX_HEADER_BYTES = 256 * 1024;

/** Codes of errors the client turns into `fetch/too-large` and `fetch/http-status` (internal marks). */
export const ENCODED_TOO_LARGE = 'SITEMAPKIT_ENCODED_TOO_LARGE';
export const NO_FINAL_STATUS = 'SITEMAPKIT_NO_FINAL_STATUS';

export interface NodeFetchInit extends Omit<RequestInit, 'headers'> {
  headers?: Record<string, string>;
  /** Most bytes received before Content-Encoding is undone. */
  maxEncodedBytes?: number;
}

export interface NodeFetch {
  fetch: FetchFunction;
  close(): void;
}

/** A response's headers, read-only, as `Headers` reads them: names in any case, repeated values joined. */
class ResponseHeaders {
  private readonly values = new Map<string, string>();

  constructor(message: IncomingMessage) {
    // node:http gives lower-case names; repeated headers as arrays (set-cookie) or already joined.
    for (const [name, value] of Object.entries(message.headers)) {
      if (value === undefined || name === 'set-cookie') continue;
      this.values.set(name, Array.isArray(value) ? value.join(', ') : value);
    }
  }

  get(name: string): string | null {
    return this.values.get(name.toLowerCase()) ?? null;
  }
}

function fetchFailed(cause: unknown): TypeError {
  return new TypeError('fetch failed', { cause });
}

/** The decoder for a Content-Encoding; no bytes at all are an empty body whatever the coding, as curl and browsers read them. */
function decoded(message: IncomingMessage, encoding: string): Readable {
  // Paused: the byte cap's 'data' listener must not make it flow before gunzipped() reads it.
  if (encoding === 'gzip' || encoding === 'x-gzip') return Readable.from(gunzipped(message.pause())).once('close', () => message.destroy());
  // Piped, so that backpressure reaches the decoder: a deflate bomb must not inflate into memory.
  const out = new PassThrough({ highWaterMark: DECODE_CHUNK });
  let piped = false;
  message.once('data', (chunk: Buffer) => {
    piped = true;
    // RFC 9110 §8.4.1.2: "deflate" is the zlib format; some servers send raw deflate. 0x?8 is a zlib header.
    const decoder = encoding === 'br' ? createBrotliDecompress({ chunkSize: DECODE_CHUNK })
      : (chunk[0] ?? 0) % 16 === 8 ? createInflate({ chunkSize: DECODE_CHUNK }) : createInflateRaw({ chunkSize: DECODE_CHUNK });
    decoder.on('error', (e) => out.destroy(e));
    decoder.pipe(out);
    decoder.write(chunk);
    message.pipe(decoder);
  });
  message.on('end', () => {
    if (!piped) out.end(); // no body at all
  });
  return out;
}

/** The Node stream of a response made here, read by the client instead of a web `body` (whose adapter copies every chunk). */
export const NODE_BODY = Symbol('sitemapkit.nodeBody');

/** One scheme's request function and its keep-alive agent. */
interface Transport {
  request(url: URL, options: RequestOptions): ClientRequest;
  agent: HttpAgent;
}

export function createNodeFetch(options: { lookup?: LookupFunction } = {}): NodeFetch {
  const agentOptions = { keepAlive: true, ...(options.lookup !== undefined ? { lookup: options.lookup } : {}) };
  // Loaded at the first request of each scheme, not with the package: a program that only validates
  // files would carry them (~0.8 MB of heap, ~15 ms of loading).
  let http: Promise<Transport> | undefined;
  let https: Promise<Transport> | undefined;
  const transport = (secure: boolean): Promise<Transport> =>
    secure
      ? (https ??= import('node:https').then((m) => ({ request: m.request, agent: new m.Agent(agentOptions) })))
      : (http ??= import('node:http').then((m) => ({ request: m.request, agent: new m.Agent(agentOptions) })));

  const fetch = async (input: string | URL | Request, init: NodeFetchInit = {}): Promise<Response> => {
    const url = new URL(typeof input === 'string' || input instanceof URL ? input : input.url);
    const { request: send, agent } = await transport(url.protocol === 'https:');
    return new Promise((resolve, reject) => {
      const signal = init.signal ?? undefined;
      if (signal?.aborted === true) return reject(signal.reason);
      const headers: Record<string, string> = { 'accept-encoding': 'gzip, deflate, br' };
      for (const [name, value] of Object.entries(init.headers ?? {})) headers[name.toLowerCase()] = value;
      const request = send(url, { method: 'GET', headers, agent, maxHeaderSize: MAX_HEADER_BYTES });
      const onAbort = (): void => void request.destroy(signal?.reason as Error);
      signal?.addEventListener('abort', onAbort, { once: true });
      // The response once it has come: an error of the connection after that belongs to its body.
      let answered: IncomingMessage | undefined;
      request.on('error', (error) => {
        signal?.removeEventListener('abort', onAbort);
        // node:http ends a close-delimited body (RFC 9112 §6.3 item 8) on a reset as on a clean close:
        // an incomplete body gets the error instead (its reader reports a truncation).
        if (answered !== undefined && !answered.complete) answered.destroy(error);
        reject(signal?.aborted === true ? signal.reason : fetchFailed(error));
      });
      request.on('response', (message) => {
        answered = message;
        const status = message.statusCode ?? 0;
        if (status < 200 || status > 599) {
          message.destroy();
          reject(fetchFailed(Object.assign(new Error(`HTTP ${status}, which is no final status (RFC 9110 §15: 200 to 599)`), { code: NO_FINAL_STATUS })));
          return;
        }
        let received = 0;
        const cap = init.maxEncodedBytes;
        if (cap !== undefined) {
          message.on('data', (chunk: Buffer) => {
            received += chunk.length;
            if (received > cap) message.destroy(Object.assign(new Error(`more than ${plural(cap, 'byte')} received before decoding`), { code: ENCODED_TOO_LARGE }));
          });
        }
        const encoding = (message.headers['content-encoding'] ?? '').trim().toLowerCase();
        const known = encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'br' || encoding === 'deflate';
        const source = known ? decoded(message, encoding) : message;
        if (known) message.on('error', (e) => source.destroy(e));
        source.on('close', () => signal?.removeEventListener('abort', onAbort));
        const nullBody = status === 204 || status === 205 || status === 304;
        if (nullBody) message.resume();
        // Nothing flows until the body is read (the cap's 'data' listener would start it); an error
        // before then stays with the stream for its reader.
        if (!nullBody) source.pause();
        source.on('error', () => {});
        // The part of fetch's `Response` the client reads. As with fetch, Content-Length stays the
        // header's: the length as sent, before decoding.
        resolve({ status, headers: new ResponseHeaders(message), [NODE_BODY]: nullBody ? null : source } as unknown as Response);
      });
      request.end();
    });
  };

  return {
    fetch: fetch as FetchFunction,
    close() {
      void http?.then((t) => t.agent.destroy());
      void https?.then((t) => t.agent.destroy());
    },
  };
}
