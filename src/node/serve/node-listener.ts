// A fetch handler as a node:http request listener (also Express and Connect middleware). The sitemap
// handler's `answer` is written straight to the socket: a Request and Response per request cost ~6× the
// throughput of node:http (issue 25). Any other fetch handler goes the general way.

import type { IncomingMessage, ServerResponse } from 'node:http';
import { Readable } from 'node:stream';
import type { ReadableStream as NodeReadableStream } from 'node:stream/web';
import { SitemapError, checkCount, quoteValue } from '../../core/errors.js';
import { then, type SitemapAnswer, type SitemapHandler } from '../../core/serve/handler.js';

export type NodeListener = (request: IncomingMessage, response: ServerResponse, next?: (error?: unknown) => void) => void;

/** What `onResponse` is told: the body's size when it was written whole (not for HEAD, 304, streams, an answer cut short), the time taken. */
export interface ResponseDone {
  bodyBytes: number | undefined;
  ms: number;
  /** The client's address, taken when the request came: a connection cut off no longer has it when it closes. */
  remoteAddress: string | undefined;
}

export interface NodeListenerOptions {
  /** Origin of the Request built for a handler without `answer` (default `http://localhost`), never the Host's. */
  origin?: string;
  /** Called once per request when its response is done (or the connection closed first): for access logs. */
  onResponse?: (request: IncomingMessage, response: ServerResponse, done: ResponseDone) => void;
  /** Milliseconds a body sent in pieces (over 64 KiB, a file read from disk, a child being made) may go without the client taking a byte, when the server set no socket timeout (default 60,000, nginx's send_timeout). */
  sendTimeoutMs?: number;
}

/** `handler` as a node:http listener; as Express or Connect middleware (with `next`), a 404 goes to `next`. */
export function toNodeListener(handler: SitemapHandler | ((request: Request) => Promise<Response>), options: NodeListenerOptions = {}): NodeListener {
  checkCount('sendTimeoutMs', options.sendTimeoutMs, 1);
  const listener = bareListener(handler, options);
  const onResponse = options.onResponse;
  if (onResponse === undefined) return listener;
  return (request, response, next) => {
    const started = performance.now();
    const { remoteAddress } = request.socket;
    response.once('close', () => onResponse(request, response, { bodyBytes: response.writableFinished ? bodyBytes.get(response) : undefined, ms: performance.now() - started, remoteAddress }));
    listener(request, response, next);
  };
}

/** Body sizes of the answers written whole, for `onResponse`. */
const bodyBytes = new WeakMap<ServerResponse, number>();

function bareListener(handler: SitemapHandler | ((request: Request) => Promise<Response>), options: NodeListenerOptions): NodeListener {
  if ('answer' in handler && typeof handler.answer === 'function') {
    const answerOf = handler.answer;
    return (request, response, next) => {
      const header = (name: string): string | string[] | undefined => request.headers[name];
      let answer: SitemapAnswer | Promise<SitemapAnswer>;
      try {
        // Express cuts a mount path off `url`: try the whole (originalUrl), then the path below the mount.
        const method = request.method ?? 'GET';
        const whole = (request as { originalUrl?: string }).originalUrl;
        const url = request.url ?? '/';
        answer = answerOf(method, whole ?? url, header);
        if (whole !== undefined && whole !== url) answer = then(answer, (first) => (first.status === 404 ? answerOf(method, url, header) : first));
      } catch (error) {
        fail(response, error, next);
        return;
      }
      if (answer instanceof Promise) answer.then((a) => writeAnswer(a, response, next, options), (error: unknown) => fail(response, error, next));
      else writeAnswer(answer, response, next, options);
    };
  }
  // Checked once, here: a bad origin would make every request of the general path a 500.
  const given = options.origin ?? 'http://localhost';
  const origin = URL.canParse(given) ? new URL(given).origin : 'null';
  if (!/^https?:/.test(origin)) throw new SitemapError('ERR_SITEMAP_OPTION', `origin ${quoteValue(given)} must be an http(s) origin such as http://localhost`);
  return (request, response, next) => {
    general(handler as (request: Request) => Promise<Response>, origin, request, response, next, options).catch((error: unknown) => fail(response, error, next));
  };
}

function writeAnswer(answer: SitemapAnswer, response: ServerResponse, next: ((error?: unknown) => void) | undefined, options: NodeListenerOptions): void {
  if (answer.status === 404 && next !== undefined) return next();
  response.writeHead(answer.status, answer.headers as string[]);
  const body = answer.body;
  if (options.onResponse !== undefined && body instanceof Uint8Array) bodyBytes.set(response, body.byteLength);
  if (body === undefined || (body instanceof Uint8Array && body.byteLength <= PIECE_BYTES)) return void response.end(body);
  // A client that stops reading would hold the body (a replaced set's bytes or file) for ever: without a timeout of the
  // server's, the socket gets one (no 'timeout' listener: Node destroys it, and 'close' ends the body).
  if (!response.socket?.timeout) response.setTimeout(options.sendTimeoutMs ?? 60_000);
  if (body instanceof Uint8Array) writePieces(body, response);
  else pipeWeb(body as unknown as NodeReadableStream<Uint8Array>, response);
}

/** Large bodies go a piece at a time as the socket drains: whole, 64 clients got 25–35% less (bench:serve). */
const PIECE_BYTES = 64 * 1024;

function writePieces(body: Uint8Array, response: ServerResponse): void {
  let at = 0;
  const more = (): void => {
    while (at < body.byteLength) {
      const piece = body.subarray(at, (at += PIECE_BYTES));
      if (at >= body.byteLength) response.end(piece);
      else if (!response.write(piece)) {
        response.once('drain', more);
        return;
      }
    }
  };
  more();
}

async function general(handler: (request: Request) => Promise<Response>, origin: string, request: IncomingMessage, response: ServerResponse, next: ((error?: unknown) => void) | undefined, options: NodeListenerOptions): Promise<void> {
  const headers = new Headers();
  for (let i = 0; i < request.rawHeaders.length; i += 2) headers.append(request.rawHeaders[i] as string, request.rawHeaders[i + 1] as string);
  const method = request.method ?? 'GET';
  const hasBody = method !== 'GET' && method !== 'HEAD';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, ...(hasBody ? { body: Readable.toWeb(request) as unknown as NonNullable<RequestInit['body']>, duplex: 'half' } : {}) };
  // Not resolved against the origin: `//evil.test/x` is a path (RFC 9112 §3.2.1); absolute-form gives its path.
  const path = (request.url ?? '/').replace(/^[A-Za-z][A-Za-z0-9+.-]*:\/\/[^/?#]*/, '');
  const answer = await handler(new Request(`${origin}${path.startsWith('/') ? '' : '/'}${path}`, init));
  const flat: string[] = [];
  answer.headers.forEach((value, name) => flat.push(name, value));
  writeAnswer({ status: answer.status, headers: flat, body: (answer.body ?? undefined) as ReadableStream<Uint8Array> | undefined }, response, next, options);
}

function pipeWeb(body: NodeReadableStream<Uint8Array>, response: ServerResponse): void {
  const readable = Readable.fromWeb(body);
  // A body cut short resets the connection: a close alone is the end of an HTTP/1.0 body (RFC 9112 §6.3), a whole-looking one. TLS has no reset.
  readable.on('error', () => (response.socket === null || 'encrypted' in response.socket ? response.destroy() : response.socket.resetAndDestroy()));
  // A client gone before the end: stop reading (and decompressing) the body.
  response.on('close', () => readable.destroy());
  readable.pipe(response);
}

function fail(response: ServerResponse, error: unknown, next: ((error?: unknown) => void) | undefined): void {
  if (next !== undefined) next(error);
  else if (response.headersSent) response.destroy();
  else response.writeHead(500, ['content-type', 'text/plain; charset=utf-8', 'cache-control', 'no-store']).end('internal error\n');
}
