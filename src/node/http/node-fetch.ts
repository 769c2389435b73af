// The default transport: a WHATWG-`fetch`-shaped GET over `node:http` / `node:https`.
//
// Why not Node's built-in fetch (undici), which issue #5 names? Under backpressure undici pauses its
// HTTP/1 parser; when the server then closes the connection (HTTP/1.0, `Connection: close`, which many
// servers send) `Parser.finish()` fails `assert(!this.paused)` in a socket 'end' handler: an
// uncatchable AssertionError that kills the process (nodejs/undici#5360; fixed in undici 8, which needs
// Node ≥ 22.19). We hit it on the first loopback run: a crawler that reads bodies as fast as it can
// parse them is exactly the case. `node:http` pauses the socket instead (TCP backpressure), which is
// what a streaming reader wants. The interface stays fetch: any `fetch` can be injected instead
// (the tests inject Node's own for the policy checks, and it works on every case they serve).
//
// What it does like fetch: Content-Encoding gzip / x-gzip / deflate / br is undone, the body is a web
// ReadableStream (made on first use; the client reads the Node stream under it, NODE_BODY), errors
// reject with `TypeError('fetch failed', { cause })`, the signal aborts the request and the body. The
// response is not undici's `Response` but the part of it that the client reads (status, headers.get,
// body), and request headers are a record, as the client sends them: the first use of the global
// `Headers` or `Response` loads undici, 27–31 ms measured, on the way to the first request.
// What it does not: it never follows redirects (the client does, hop by hop), and only GET exists.
// It also caps the bytes as received, before decoding (`maxEncodedBytes` in the init), so a
// Content-Encoding stream that inflates to nothing cannot run on unbounded.

import type { Agent as HttpAgent, ClientRequest, IncomingMessage, RequestOptions } from 'node:http';
import type { LookupFunction } from 'node:net';
import { PassThrough, Readable } from 'node:stream';
import { createBrotliDecompress, createGunzip, createInflate, createInflateRaw } from 'node:zlib';
import type { FetchFunction } from './client.js';

const DECODE_CHUNK = 256 * 1024;

/**
 * The `code` of errors the client turns into diagnostics (client.ts describeError: `fetch/too-large`,
 * `fetch/http-status`); internal marks, never thrown to a caller.
 */
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

/** The decoder for a Content-Encoding; deflate is zlib-wrapped or raw, told by the first byte. */
function decoded(message: IncomingMessage, encoding: string): Readable {
  if (encoding === 'gzip' || encoding === 'x-gzip') return message.pipe(createGunzip({ chunkSize: DECODE_CHUNK }));
  if (encoding === 'br') return message.pipe(createBrotliDecompress({ chunkSize: DECODE_CHUNK }));
  // RFC 9110 §8.4.1.2: "deflate" is the zlib format; some servers send raw deflate. 0x?8 is a zlib header.
  // Piped, as the others: the reader's backpressure must reach the decoder, or a deflate bomb inflates
  // into memory whole while the reader is held back.
  const out = new PassThrough({ highWaterMark: DECODE_CHUNK });
  let piped = false;
  message.once('data', (chunk: Buffer) => {
    piped = true;
    const decoder = (chunk[0] ?? 0) % 16 === 8 ? createInflate({ chunkSize: DECODE_CHUNK }) : createInflateRaw({ chunkSize: DECODE_CHUNK });
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

/**
 * The Node stream of a response made here (`NODE_BODY in response`), which the client reads instead of
 * `body`: the web stream adapter copies every chunk and settles a promise for each (measured: one
 * copy of every byte fetched).
 */
export const NODE_BODY = Symbol('sitemapkit.nodeBody');

/** The part of fetch's `Response` the client reads; `body` is made on first use, from the Node stream. */
class NodeResponse {
  readonly [NODE_BODY]: Readable | null;
  private web: ReadableStream<Uint8Array> | null | undefined;

  constructor(
    readonly status: number,
    readonly headers: ResponseHeaders,
    stream: Readable | null,
  ) {
    this[NODE_BODY] = stream;
  }

  get body(): ReadableStream<Uint8Array> | null {
    const stream = this[NODE_BODY];
    if (this.web === undefined) this.web = stream === null ? null : (Readable.toWeb(stream) as unknown as ReadableStream<Uint8Array>);
    return this.web;
  }
}

/** One scheme's request function and its keep-alive agent. */
interface Transport {
  request(url: URL, options: RequestOptions): ClientRequest;
  agent: HttpAgent;
}

export function createNodeFetch(options: { lookup?: LookupFunction } = {}): NodeFetch {
  const agentOptions = { keepAlive: true, ...(options.lookup !== undefined ? { lookup: options.lookup } : {}) };
  // node:http and node:https (with net, tls, crypto) are loaded on the first request of each scheme,
  // not with the package: a program that imports sitemapkit to validate files would otherwise carry
  // them (~0.8 MB of heap, which made V8's first full collection fall due in the middle of a cold
  // validation, and ~15 ms of loading).
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
      const request = send(url, { method: 'GET', headers, agent });
      const onAbort = (): void => {
        request.destroy(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      // The response once it has come: an error of the connection after that belongs to its body.
      let answered: IncomingMessage | undefined;
      request.on('error', (error) => {
        signal?.removeEventListener('abort', onAbort);
        // node:http ends a body delimited by the connection's close (RFC 9112 §6.3 item 8) on a reset
        // as it does on a clean close: it finishes the parser right after this event. A body that is
        // not complete yet is broken, not ended, so it gets the error (and its reader a truncation).
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
            if (received > cap) message.destroy(Object.assign(new Error(`more than ${cap} bytes received before decoding`), { code: ENCODED_TOO_LARGE }));
          });
        }
        const encoding = (message.headers['content-encoding'] ?? '').trim().toLowerCase();
        const known = encoding === 'gzip' || encoding === 'x-gzip' || encoding === 'br' || encoding === 'deflate';
        const source = known ? decoded(message, encoding) : message;
        if (known) message.on('error', (e) => source.destroy(e));
        source.on('close', () => signal?.removeEventListener('abort', onAbort));
        const nullBody = status === 204 || status === 205 || status === 304;
        if (nullBody) message.resume();
        // Nothing flows until the body is read (the cap's 'data' listener above would start it). An error
        // before then stays with the stream (its reader gets it), not thrown for want of a listener.
        if (!nullBody) source.pause();
        source.on('error', () => {});
        // As with fetch, Content-Length stays the header's: the length as sent, before decoding.
        const response = new NodeResponse(status, new ResponseHeaders(message), nullBody ? null : source);
        resolve(response as unknown as Response);
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
