// A test HTTP server on 127.0.0.1 (ephemeral port) serving a table of routes, and logging every request.

import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

export type Handler = (req: IncomingMessage, res: ServerResponse, server: SiteServer) => void | Promise<void>;

/** A fixed answer: a body (text or bytes), a status (200) and headers. */
export interface StaticRoute {
  body?: string | Uint8Array;
  status?: number;
  type?: string;
  headers?: Record<string, string>;
}

export type Route = Handler | StaticRoute;

export interface LoggedRequest {
  path: string;
  headers: IncomingMessage['headers'];
}

export class SiteServer {
  readonly requests: LoggedRequest[] = [];
  origin = '';
  private readonly server: Server;

  constructor(private readonly routes: Record<string, Route>) {
    this.server = createServer((req, res) => {
      void this.handle(req, res);
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen(0, '127.0.0.1', resolve));
    this.origin = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  /** `origin` + `path`. */
  url(path: string): string {
    return `${this.origin}${path}`;
  }

  /** Requests made for `path` (the path and query as sent). */
  count(path: string): number {
    return this.requests.filter((r) => r.path === path).length;
  }

  route(path: string, route: Route): void {
    this.routes[path] = route;
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const path = req.url ?? '/';
    this.requests.push({ path, headers: req.headers });
    const route = this.routes[path];
    try {
      if (route === undefined) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found');
      } else if (typeof route === 'function') {
        await route(req, res, this);
      } else {
        const body = route.body ?? '';
        res.writeHead(route.status ?? 200, { 'content-type': route.type ?? 'application/xml', 'content-length': Buffer.byteLength(body), ...route.headers });
        res.end(body);
      }
    } catch {
      res.destroy();
    }
  }

  async close(): Promise<void> {
    this.server.closeAllConnections();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function startSiteServer(routes: Record<string, Route> = {}): Promise<SiteServer> {
  return new SiteServer(routes).start();
}

/** A urlset of `locs`. */
export function urlset(locs: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((loc) => `<url><loc>${loc}</loc></url>\n`).join('')}</urlset>\n`;
}

/** A sitemap index of `locs`. */
export function sitemapIndex(locs: readonly string[]): string {
  return `<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${locs.map((loc) => `<sitemap><loc>${loc}</loc></sitemap>\n`).join('')}</sitemapindex>\n`;
}

/** `count` page URLs under `https://www.example.com/<prefix>/`. */
export function pages(prefix: string, count: number): string[] {
  return Array.from({ length: count }, (_, i) => `https://www.example.com/${prefix}/${i}`);
}
