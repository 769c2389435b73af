// `sitemapkit indexnow`: tell search engines which URLs changed since they last heard from us.
// The build state knows each page's content hash and what was last accepted; only the difference is
// submitted, and a payload is recorded as submitted only once the endpoint accepted it.

import { parseArgs } from 'node:util';
import { join, resolve } from 'node:path';
import { SitemapError } from '../../core/errors.js';
import { indexNowEndpoint, indexNowKeyFileUrl, indexNowKeyProblem, indexNowPayloads, type IndexNowPayload } from '../../core/indexnow.js';
import { pendingAnnouncements, recordAnnounced, type AnnouncementKind } from '../../core/build/announce.js';
import { submitIndexNow, type IndexNowResult } from '../../node/indexnow.js';
import { loadState, saveState, writeFileAtomic } from '../../node/build/state-store.js';
import { DEFAULT_STATE_PATH } from '../../node/build-site.js';
import { EXIT_FATAL, EXIT_OK, EXIT_PROBLEMS, type CliIo } from '../io.js';
import { formatCount, plural } from '../format.js';
import { UsageError, usageFailure } from '../args.js';
import { USER_AGENT_HELP, userAgent } from '../version.js';
import { ProblemPrinter } from '../problems.js';

export const INDEXNOW_HELP = `Usage: sitemapkit indexnow --key KEY [--out DIR | --state FILE] [options]

Submit to IndexNow (Bing, Yandex, Seznam, Naver, Yep…; Google does not take
part) the URLs that were added to the sitemap, whose content changed, or that
left it (deleted, now noindex or a redirect) since the last submission that
was accepted, as recorded in the build state of "sitemapkit build". URLs are
posted per host in batches of at most 10,000. A batch is recorded as
submitted only when the endpoint accepts it (200 or 202), so a failed run
can simply be repeated.

Options:
  --key KEY              your IndexNow key: 8 to 128 letters, digits or '-'
  --key-location URL     where the key file is, when not at https://HOST/KEY.txt
  --write-key-file       write KEY.txt (containing the key) into the output folder,
                         which must then be published with the site
  --endpoint URL         default https://api.indexnow.org/indexnow (shares with
                         every participating engine); e.g. https://www.bing.com/indexnow
  --out DIR              the folder "sitemapkit build" wrote to (default: .)
  --state FILE           the build state (default OUT/${DEFAULT_STATE_PATH.replace(/\\/g, '/')})
  --dry-run              print the payloads (one JSON object per line) and send nothing
  --retries N            retries of a batch on 429, 5xx and connection errors (default 3)
  --user-agent UA        ${USER_AGENT_HELP}
  --json                 print the results as JSON on standard output
  -q, --quiet            print only problems
  -h, --help             this help

The endpoint's answers: 200 and 202 accepted (202: the key is being checked);
400 bad request; 403 the key file is missing or does not hold the key; 422 URLs
not on the key's host, or a key the endpoint refuses; 429 too many requests
(waited for, as Retry-After says, and retried).

Exit status: 0 submitted (or nothing to submit), 1 some batch was refused or
could not be sent, 2 usage or fatal error.

Examples:
  sitemapkit build public --base-url https://www.example.com/
  sitemapkit indexnow --key 5f2b8c1d9e7a4b3c --out public --write-key-file
  sitemapkit indexnow --key 5f2b8c1d9e7a4b3c --out public --dry-run
`;

/** The options `build --indexnow-key` shares with this command. */
export const INDEXNOW_OPTIONS = {
  'key-location': { type: 'string' },
  endpoint: { type: 'string' },
  'write-key-file': { type: 'boolean' },
  'dry-run': { type: 'boolean' },
  retries: { type: 'string' },
  'user-agent': { type: 'string' },
} as const;

const OPTIONS = {
  key: { type: 'string' },
  out: { type: 'string' },
  state: { type: 'string' },
  ...INDEXNOW_OPTIONS,
  json: { type: 'boolean' },
  quiet: { type: 'boolean', short: 'q' },
  help: { type: 'boolean', short: 'h' },
} as const;

export interface IndexNowSettings {
  key: string;
  keyLocation?: string;
  endpoint: string;
  writeKeyFile: boolean;
  dryRun: boolean;
  retries?: number;
  userAgent?: string;
}

/** Checks the IndexNow options; throws UsageError. */
export function indexNowSettings(values: {
  key?: string | undefined;
  'key-location'?: string | undefined;
  endpoint?: string | undefined;
  'write-key-file'?: boolean | undefined;
  'dry-run'?: boolean | undefined;
  retries?: string | undefined;
  'user-agent'?: string | undefined;
  json?: boolean | undefined;
}): IndexNowSettings {
  if (values.key === undefined) throw new UsageError('--key KEY is required (your IndexNow key, also published as KEY.txt on your site)');
  const problem = indexNowKeyProblem(values.key);
  if (problem !== undefined) throw new UsageError(`--key: ${problem}`);
  let endpoint: string;
  try {
    endpoint = indexNowEndpoint(values.endpoint);
  } catch (error) {
    throw new UsageError(`--endpoint: ${(error as Error).message}`);
  }
  if (values['dry-run'] === true && values.json === true) {
    throw new UsageError('--dry-run prints the payloads on standard output; it cannot be combined with --json');
  }
  if (values['key-location'] !== undefined && !/^https?:\/\/[^/]/i.test(values['key-location'])) {
    throw new UsageError(`--key-location must be an absolute http(s) URL, got ${JSON.stringify(values['key-location'])}`);
  }
  let retries: number | undefined;
  if (values.retries !== undefined) {
    if (!/^\d{1,2}$/.test(values.retries)) throw new UsageError(`--retries must be a whole number from 0 to 99, got ${JSON.stringify(values.retries)}`);
    retries = Number(values.retries);
  }
  return {
    key: values.key,
    ...(values['key-location'] !== undefined ? { keyLocation: values['key-location'] } : {}),
    endpoint,
    writeKeyFile: values['write-key-file'] === true,
    dryRun: values['dry-run'] === true,
    ...(retries !== undefined ? { retries } : {}),
    ...(values['user-agent'] !== undefined ? { userAgent: values['user-agent'] } : {}),
  };
}

export interface SubmitContext {
  statePath: string;
  outDir: string;
  io: CliIo;
  /** Only problems on stderr. */
  quiet: boolean;
}

export interface SubmitSummary {
  endpoint: string;
  dryRun: boolean;
  pending: { added: number; updated: number; removed: number };
  keyFile?: string;
  payloads: { host: string; urls: number; accepted: boolean; status?: number; code: string; message: string; hint?: string; keyFile: string }[];
  recorded: number;
}

/** Submits what the state says is pending; reports on stderr; never throws for the endpoint's answers. */
export async function submitPending(settings: IndexNowSettings, context: SubmitContext): Promise<{ ok: boolean; summary: SubmitSummary }> {
  const { io } = context;
  const say = (text: string): void => {
    if (!context.quiet) io.stderr.write(text);
  };
  const state = await loadState(context.statePath);
  if (state.baseUrl === undefined) {
    throw new SitemapError('ERR_SITEMAP_STATE', `no build state at ${context.statePath}: run "sitemapkit build" first (or give --out / --state)`);
  }
  const pending = pendingAnnouncements(state.pages, state.announced);
  const counts: Record<AnnouncementKind, number> = { added: 0, updated: 0, removed: 0 };
  for (const item of pending) counts[item.kind]++;
  // A site served below the host's root cannot publish /KEY.txt: its key file sits next to its pages.
  const keyLocation = settings.keyLocation ?? (settings.writeKeyFile && new URL(state.baseUrl).pathname !== '/' ? `${state.baseUrl}${settings.key}.txt` : undefined);
  const payloads = indexNowPayloads(
    pending.map((item) => item.url),
    { key: settings.key, ...(keyLocation !== undefined ? { keyLocation } : {}) },
  );
  const summary: SubmitSummary = { endpoint: settings.endpoint, dryRun: settings.dryRun, pending: counts, payloads: [], recorded: 0 };

  if (settings.writeKeyFile && !settings.dryRun) {
    const keyFile = join(context.outDir, `${settings.key}.txt`);
    await writeFileAtomic(keyFile, settings.key);
    summary.keyFile = keyFile;
    say(`indexnow: wrote the key file ${keyFile}; publish it with the site\n`);
  }
  if (payloads.length === 0) {
    say('indexnow: nothing to submit: no URL was added, changed or removed since the last accepted submission\n');
    return { ok: true, summary };
  }
  const what = `${formatCount(counts.added)} added, ${formatCount(counts.updated)} updated, ${formatCount(counts.removed)} removed`;
  if (settings.dryRun) {
    for (const payload of payloads) io.stdout.write(JSON.stringify(payload) + '\n');
    say(`indexnow: dry run: ${plural(pending.length, 'URL')} (${what}) in ${plural(payloads.length, 'payload')} for ${settings.endpoint}; nothing sent\n`);
    for (const payload of payloads) summary.payloads.push({ host: payload.host, urls: payload.urlList.length, accepted: false, code: 'indexnow/dry-run', message: 'not sent (dry run)', keyFile: indexNowKeyFileUrl(payload) });
    return { ok: true, summary };
  }

  say(`indexnow: submitting ${plural(pending.length, 'URL')} (${what}) to ${settings.endpoint}\n`);
  const results = await submitIndexNow(payloads, {
    endpoint: settings.endpoint,
    userAgent: settings.userAgent ?? userAgent(),
    ...(settings.retries !== undefined ? { retries: settings.retries } : {}),
    ...(io.fetch !== undefined ? { fetch: io.fetch } : {}),
    onResult: (result: IndexNowResult) => {
      if (result.accepted) {
        recordAnnounced(state.pages, state.announced, result.payload.urlList);
        summary.recorded += result.payload.urlList.length;
      }
    },
  });
  let ok = true;
  const problems = ProblemPrinter.for(io.stderr);
  for (const result of results) {
    const payload: IndexNowPayload = result.payload;
    summary.payloads.push({
      host: payload.host,
      urls: payload.urlList.length,
      accepted: result.accepted,
      ...(result.status !== undefined ? { status: result.status } : {}),
      code: result.code,
      message: result.message,
      ...(result.hint !== undefined ? { hint: result.hint } : {}),
      keyFile: indexNowKeyFileUrl(payload),
    });
    const head = `indexnow: ${payload.host}: ${plural(payload.urlList.length, 'URL')}`;
    if (result.accepted) {
      say(`${head}: ${result.message}\n`);
    } else {
      ok = false;
      // A refusal is a problem of the submission: the endpoint is where, the host and count what.
      const said = result.response !== undefined ? `; the endpoint said: ${result.response}` : '';
      problems.print({ file: settings.endpoint, severity: 'error', code: result.code, message: `${payload.host}, ${plural(payload.urlList.length, 'URL')}: ${result.message}${said}`, ...(result.hint !== undefined ? { hint: result.hint } : {}) });
    }
  }
  if (summary.recorded > 0) {
    state.lastSubmission = new Date().toISOString();
    await saveState(context.statePath, state);
  }
  return { ok, summary };
}

export async function runIndexNow(argv: string[], io: CliIo): Promise<number> {
  let values;
  let positionals: string[];
  try {
    ({ values, positionals } = parseArgs({ args: argv, options: OPTIONS, allowPositionals: true, strict: true }));
  } catch (error) {
    return usageFailure(io, 'indexnow', (error as Error).message);
  }
  if (values.help === true) {
    io.stdout.write(INDEXNOW_HELP);
    return EXIT_OK;
  }
  let settings: IndexNowSettings;
  try {
    if (positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}; the output folder is given with --out DIR`);
    settings = indexNowSettings(values);
  } catch (error) {
    if (error instanceof UsageError) return usageFailure(io, 'indexnow', error.message);
    throw error;
  }
  const outDir = resolve(io.cwd, values.out ?? '.');
  const statePath = values.state !== undefined ? resolve(io.cwd, values.state) : join(outDir, DEFAULT_STATE_PATH);
  const json = values.json === true;
  try {
    const { ok, summary } = await submitPending(settings, { statePath, outDir, io, quiet: values.quiet === true || json });
    if (json) io.stdout.write(JSON.stringify({ ...summary, ok }, null, 2) + '\n');
    return ok ? EXIT_OK : EXIT_PROBLEMS;
  } catch (error) {
    if (error instanceof SitemapError) {
      io.stderr.write(`sitemapkit: ${error.message}\n`);
      return EXIT_FATAL;
    }
    throw error;
  }
}
