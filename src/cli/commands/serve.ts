// `sitemapkit serve DIR`: the directory source behind the sitemap handler on a node:http server.

import { once } from 'node:events';
import { Server, type RequestListener } from 'node:http';
import { Server as NetServer, type AddressInfo } from 'node:net';
import { resolve } from 'node:path';
import { createSitemapHandler, SAFE_NAME } from '../../core/serve/handler.js';
import { scopeOf } from '../../core/url.js';
import { openDirectorySource, type DirectorySource } from '../../node/serve/directory-source.js';
import { toNodeListener, type NodeListenerOptions } from '../../node/serve/node-listener.js';
import { asUsage, fatalFailure, UsageError } from '../args.js';
import { commandLine, definedOnly, type ParsedArgs } from '../command.js';
import { SERVE } from '../declarations.js';
import { commandMessage, EXIT_OK, fatal, type CliIo, type OutputStream } from '../io.js';
import { plural } from '../format.js';

/** Request headers larger than this are answered 431 (node:http's own default is 16 KiB). */
const MAX_HEADER_BYTES = 8 * 1024;
/** How long in-flight responses may take to finish once a stop is asked for. */
const STOP_DEADLINE_MS = 10_000;

type LogFormat = 'common' | 'json' | 'none';

export async function runServe(argv: string[], io: CliIo): Promise<number> {
  const line = await commandLine(SERVE, argv, io, (args) => {
    if (args.positionals.length !== 1) throw new UsageError('give one DIR: the folder holding the set');
    const name = args.text('name');
    if (name !== undefined && !SAFE_NAME.test(name)) throw new UsageError(`--name ${JSON.stringify(name)}: use letters, digits, '.', '_' and '-'`);
    const base = args.text('base-url');
    return base === undefined ? undefined : asUsage(() => scopeOf(base));
  });
  if ('exit' in line) return line.exit;
  const { args, checked: scope } = line;
  const baseUrl = scope?.href;
  const dir = resolve(io.cwd, args.positionals[0] as string);
  const quiet = args.flag('quiet');
  const stem = (args.text('name') ?? 'sitemap').replace(/\.xml$/, '');
  const stderr = droppedOnError(io.stderr);
  const say = (line: string): void => {
    if (!quiet) stderr.write(commandMessage('serve', `${line}`));
  };
  let source: DirectorySource;
  // Each set loaded: the children its index lists that are not served, once each (not at each request for them).
  const sayNotServed = (): void => {
    for (const { loc, reason } of source.skipped) stderr.write(commandMessage('serve', `${loc}, listed by ${stem}.xml, is not served: ${reason}`));
  };
  try {
    source = await openDirectorySource({
      dir,
      entry: `${stem}.xml`,
      ...(baseUrl !== undefined ? { baseUrl } : {}),
      graceMs: args.number('grace') ?? 3_600_000,
      onChange: (event) => {
        if ('error' in event) stderr.write(commandMessage('serve', `${event.error.message}; still serving the previous set`));
        else {
          say(`serving a new set (${plural(event.loaded.length, 'file')})`);
          sayNotServed();
        }
      },
    });
    sayNotServed();
  } catch (error) {
    return fatalFailure(io, 'serve', error, `no set to serve in ${dir}: `);
  }
  const handler = createSitemapHandler({
    source,
    page: `${stem}.html`,
    ...definedOnly({ baseUrl, cacheControl: args.text('cache-control') }),
    robotsHeader: !args.flag('no-robots-header'),
  });
  const log = accessLog(args.choice<LogFormat>('log') ?? 'common', droppedOnError(io.stdout, stderr));
  const { server, stop } = httpServer(args, toNodeListener(handler, log === undefined ? {} : { onResponse: log }));
  try {
    server.listen(args.number('port') ?? 8080, args.text('host') ?? '127.0.0.1');
    await once(server, 'listening');
  } catch (error) {
    source.close();
    return fatal(io, 'serve', `cannot listen: ${(error as Error).message}`);
  }
  const address = server.address() as AddressInfo;
  const host = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  say(`serving ${dir} at http://${host}:${address.port}${scope?.pathPrefix ?? '/'}${source.names[0] ?? ''} (${plural(source.names.length, 'file')}); Ctrl-C to stop`);
  await untilInterrupted(io);
  say('stopping: finishing the responses under way');
  await stop();
  source.close();
  return EXIT_OK;
}

/** The node:http server answering with `listener`, its limits against slow or greedy clients set by the options. */
function httpServer(args: ParsedArgs, listener: RequestListener): { server: Server; stop: () => Promise<void> } {
  const headerTimeout = args.number('header-timeout') ?? 10_000;
  const server = new Server(
    {
      maxHeaderSize: MAX_HEADER_BYTES,
      // A client sending its headers slowly (one byte a second) is cut off, checked this often.
      headersTimeout: headerTimeout,
      requestTimeout: headerTimeout + 20_000,
      connectionsCheckingInterval: Math.min(1000, Math.max(100, headerTimeout / 4)),
      // A header sent twice is one value with a comma (RFC 9110 §5.3): a second Host is then seen.
      joinDuplicateHeaders: true,
    },
  );
  // nginx's send_timeout: a client that never reads would hold its connection for ever.
  server.setTimeout(args.number('send-timeout') ?? 60_000);
  const stop = gracefulStop(server, (request, response) => {
    // RFC 9112 §3.2: more than one Host is a 400.
    if (request.headers.host?.includes(',')) response.writeHead(400, ['content-type', 'text/plain; charset=utf-8', 'connection', 'close']).end('more than one Host\n');
    else listener(request, response);
  });
  return { server, stop };
}

/** Resolves at SIGINT or SIGTERM; never without onInterrupt. */
function untilInterrupted(io: CliIo): Promise<void> {
  return new Promise((done) => {
    const off = io.onInterrupt?.(() => {
      off?.();
      done();
    });
  });
}

/** Serves `listener` on `server`; the function returned stops it gracefully: every response under way is sent whole, until a deadline. */
function gracefulStop(server: Server, listener: RequestListener): () => Promise<void> {
  let sending = 0;
  let stopping = false;
  server.on('request', (request, response) => {
    sending++;
    if (stopping) response.shouldKeepAlive = false;
    // 'close' comes after 'finish', which comes once the last byte is handed to the system.
    response.once('close', () => sending--);
    listener(request, response);
  });
  return async (): Promise<void> => {
    stopping = true;
    // Not http.Server.close(): Node 20 counts as idle, and closes, a connection still writing its body.
    const closed = new Promise<void>((done) => NetServer.prototype.close.call(server, () => done()));
    const sweep = setInterval(() => {
      if (sending === 0) server.closeIdleConnections();
    }, 50);
    const deadline = setTimeout(() => server.closeAllConnections(), STOP_DEADLINE_MS);
    await closed;
    clearInterval(sweep);
    clearTimeout(deadline);
  };
}

/** `out`, which drops what is written once the stream failed (said once on `err`): serving goes on. */
function droppedOnError(out: OutputStream, err?: OutputStream): OutputStream {
  let failed = false;
  (out as Partial<Pick<NodeJS.EventEmitter, 'on'>>).on?.('error', (error: Error) => {
    if (!failed) err?.write(commandMessage('serve', `the access log cannot be written (${(error as { code?: string }).code ?? error.message}); serving goes on without it`));
    failed = true;
  });
  return { write: (text) => failed || out.write(text) };
}

/** One line per request on `out`: the Common Log Format (with the milliseconds taken) or JSON. */
function accessLog(format: LogFormat, out: OutputStream): NodeListenerOptions['onResponse'] {
  if (format === 'none') return undefined;
  return (request, response, { bodyBytes, ms, remoteAddress }) => {
    const remote = remoteAddress ?? '-';
    // 0: the connection closed before an answer was sent.
    const status = response.headersSent ? response.statusCode : 0;
    const time = Math.round(ms * 10) / 10;
    if (format === 'json') {
      out.write(`${JSON.stringify({ time: new Date().toISOString(), remote, method: request.method, path: request.url, status, bytes: bodyBytes ?? null, ms: time })}\n`);
      return;
    }
    // The request line quoted with its quotes and controls escaped: a path cannot forge a log line.
    const line = JSON.stringify(`${request.method} ${request.url} HTTP/${request.httpVersion}`);
    out.write(`${remote} - - [${commonLogDate(new Date())}] ${line} ${status} ${bodyBytes ?? '-'} ${time}\n`);
  };
}

/** `26/Nov/2026:17:55:32 +0000`, from the HTTP date `Thu, 26 Nov 2026 17:55:32 GMT`. */
function commonLogDate(date: Date): string {
  const [, day, month, year, time] = date.toUTCString().split(' ');
  return `${day}/${month}/${year}:${time} +0000`;
}
