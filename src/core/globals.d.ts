// The few web-platform globals the pure core relies on. They exist in Node, browsers, workers and
// edge runtimes alike; declaring them here keeps src/core free of DOM and Node typings.

declare class URL {
  constructor(input: string, base?: string | URL);
  href: string;
  protocol: string;
  username: string;
  password: string;
  host: string;
  hostname: string;
  port: string;
  pathname: string;
  search: string;
  hash: string;
  origin: string;
  toString(): string;
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
