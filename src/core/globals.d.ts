// The few web-platform globals the pure core relies on. They exist in Node, browsers, workers and
// edge runtimes alike; declaring them here keeps src/core free of DOM and Node typings.

declare class URL {
  constructor(input: string, base?: string | URL);
  static canParse(input: string, base?: string): boolean;
  href: string;
  protocol: string;
  host: string;
  hostname: string;
  pathname: string;
  search: string;
  hash: string;
  origin: string;
}

declare class TextEncoder {
  encode(input?: string): Uint8Array;
  encodeInto(source: string, destination: Uint8Array): { read: number; written: number };
}

declare class TextDecoder {
  constructor(label?: string, options?: { fatal?: boolean; ignoreBOM?: boolean });
  decode(input?: ArrayBufferView | ArrayBuffer, options?: { stream?: boolean }): string;
}

declare function atob(data: string): string;
declare function btoa(data: string): string;

// The fetch types the serve handler (core/serve) takes and returns: Request → Response. Only what it uses.
declare class Headers {
  get(name: string): string | null;
}

declare class Request {
  readonly method: string;
  readonly url: string;
  readonly headers: Headers;
}

declare class Response {
  constructor(body?: Uint8Array | ReadableStream<Uint8Array> | string | null, init?: { status?: number; headers?: [string, string][] });
  readonly body: ReadableStream<Uint8Array> | null;
  arrayBuffer(): Promise<ArrayBuffer>;
}

interface ReadableStreamDefaultController<R> {
  enqueue(chunk: R): void;
  close(): void;
  error(reason?: unknown): void;
}

declare class ReadableStream<R> {
  constructor(source: { start?(controller: ReadableStreamDefaultController<R>): void; pull?(controller: ReadableStreamDefaultController<R>): void | Promise<void> });
  pipeThrough<T>(transform: { writable: unknown; readable: ReadableStream<T> }): ReadableStream<T>;
  getReader(): { read(): Promise<{ done: true; value?: undefined } | { done: false; value: R }> };
}

declare class WritableStream<W> {
  getWriter(): { write(chunk: W): Promise<void>; close(): Promise<void>; abort(reason?: unknown): Promise<void> };
}

declare class DecompressionStream {
  constructor(format: 'gzip' | 'deflate' | 'deflate-raw');
  readonly writable: unknown;
  readonly readable: ReadableStream<Uint8Array>;
}

declare class CompressionStream {
  constructor(format: 'gzip' | 'deflate' | 'deflate-raw');
  readonly writable: WritableStream<Uint8Array>;
  readonly readable: ReadableStream<Uint8Array>;
}

declare const crypto: { subtle: { digest(algorithm: 'SHA-256', data: Uint8Array): Promise<ArrayBuffer> } };
