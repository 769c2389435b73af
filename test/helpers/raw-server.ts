// A raw TCP server on 127.0.0.1 (ephemeral port) that answers each HTTP request with bytes written by
// hand: for responses node:http would not send (a body shorter than its Content-Length, a chunked body
// without its last chunk, a connection reset in the middle of a body).

import { createServer, type AddressInfo, type Server, type Socket } from 'node:net';

export interface RawServer {
  readonly origin: string;
  readonly port: number;
  /** The request paths, in order. */
  readonly requests: string[];
  url(path: string): string;
  close(): Promise<void>;
}

/** `respond(socket, path)` is called once the request head has arrived; it owns the socket then. */
export async function startRawServer(respond: (socket: Socket, path: string) => void): Promise<RawServer> {
  const sockets = new Set<Socket>();
  const requests: string[] = [];
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    let head = '';
    const onData = (chunk: Buffer): void => {
      head += chunk.toString('latin1');
      if (!head.includes('\r\n\r\n')) return;
      socket.off('data', onData);
      const path = /^GET (\S+)/.exec(head)?.[1] ?? '/';
      requests.push(path);
      respond(socket, path);
    };
    socket.on('data', onData);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  const origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    port,
    requests,
    url: (path) => `${origin}${path}`,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}

/** A port on 127.0.0.1 that nothing listens on: bound, then closed. */
export async function closedPort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}
