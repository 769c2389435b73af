// Helpers of the serve tests: a set written by writeSitemaps, a real node:http server on 127.0.0.1, raw requests.

import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import type { UrlEntry } from '../../src/core/model.js';
import { writeSitemaps } from '../../src/node/write-sitemaps.js';

export const BASE = 'https://www.example.com/';

/** `n` entries whose locs carry `tag`, so that each set written has its own content. */
export function* taggedEntries(n: number, tag: string): Generator<UrlEntry> {
  for (let i = 0; i < n; i++) yield { loc: `${BASE}${tag}/${i}`, lastmod: '2026-01-01' };
}

/** Writes a set of `n` URLs, `maxUrls` a child, into `dir` (an index when there is more than one child). */
export function writeSet(dir: string, tag: string, n = 30, maxUrls = 10): ReturnType<typeof writeSitemaps> {
  return writeSitemaps(taggedEntries(n, tag), { outDir: dir, baseUrl: BASE, maxUrls, compressionThreads: 1 });
}

export interface Listening {
  server: Server;
  origin: string;
  port: number;
  close(): Promise<void>;
}

export async function listen(listener: Parameters<typeof createServer>[1], options: Parameters<typeof createServer>[0] = {}): Promise<Listening> {
  const server = createServer(options, listener);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return {
    server,
    port,
    origin: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

/** Sends `head` as it is (no client normalises it) and returns the status of the answer. */
export function rawStatus(port: number, head: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, '127.0.0.1', () => socket.write(head));
    let text = '';
    socket.on('data', (chunk) => {
      text += chunk.toString('latin1');
      const match = /^HTTP\/1\.1 (\d{3})/.exec(text);
      if (match !== null) {
        resolve(Number(match[1]));
        socket.destroy();
      }
    });
    socket.on('error', reject);
    socket.on('close', () => reject(new Error(`no status line: ${JSON.stringify(text)}`)));
  });
}
