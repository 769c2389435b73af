// `sitemapkit indexnow`: tell search engines which URLs changed since they last heard from us. Only
// the build state's difference is submitted, recorded once the endpoint accepted it.

import { join, resolve } from 'node:path';
import { SitemapError } from '../../core/errors.js';
import { indexNowEndpoint, indexNowKeyFileUrl, indexNowKeyProblem, indexNowPayloads, type IndexNowPayload } from '../../core/indexnow.js';
import { pendingAnnouncements, recordAnnounced, type AnnouncementKind } from '../../core/build/announce.js';
import { submitIndexNow, type IndexNowResult } from '../../node/indexnow.js';
import { loadState, saveState } from '../../node/build/state-store.js';
import { writeFileAtomic } from '../../node/staged-output.js';
import { DEFAULT_STATE_PATH } from '../../node/build-site.js';
import { EXIT_OK, EXIT_PROBLEMS, type CliIo } from '../io.js';
import { formatCount, plural } from '../format.js';
import { asUsage, UsageError, fatalFailure } from '../args.js';
import { commandLine, definedOnly, type ParsedArgs } from '../command.js';
import { INDEXNOW } from '../declarations.js';
import { userAgent } from '../version.js';
import { ProblemPrinter } from '../problems.js';

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
export function indexNowSettings(args: ParsedArgs, key: string | undefined): IndexNowSettings {
  if (key === undefined) throw new UsageError('--key KEY is required (your IndexNow key, also published as KEY.txt on your site)');
  const problem = indexNowKeyProblem(key);
  if (problem !== undefined) throw new UsageError(`--key: ${problem}`);
  const endpoint = asUsage(() => indexNowEndpoint(args.text('endpoint')), '--endpoint: ');
  const keyLocation = args.text('key-location');
  if (keyLocation !== undefined && !/^https?:\/\/[^/]/i.test(keyLocation)) {
    throw new UsageError(`--key-location must be an absolute http(s) URL, got ${JSON.stringify(keyLocation)}`);
  }
  return {
    key,
    endpoint,
    writeKeyFile: args.flag('write-key-file'),
    dryRun: args.flag('dry-run'),
    ...definedOnly({ keyLocation, retries: args.number('retries'), userAgent: args.text('user-agent') }),
  };
}

export interface SubmitContext {
  statePath: string;
  /** The folder served at the state's base URL, where --write-key-file puts KEY.txt. */
  siteDir: string;
  io: CliIo;
  /** Only problems on stderr. */
  quiet: boolean;
  /** The summary is printed as JSON, a dry run's payloads in it. */
  json?: boolean;
}

export interface SubmitSummary {
  endpoint: string;
  dryRun: boolean;
  pending: { added: number; updated: number; removed: number };
  keyFile?: string;
  payloads: { host: string; urls: number; accepted: boolean; status?: number; code: string; message: string; hint?: string; keyFile: string; body?: IndexNowPayload }[];
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
  const keyUrl = settings.keyLocation ?? `${state.baseUrl}${settings.key}.txt`;
  const keyLocation = settings.keyLocation ?? (settings.writeKeyFile && new URL(state.baseUrl).pathname !== '/' ? keyUrl : undefined);
  const keyFile = settings.writeKeyFile ? keyFilePath(context.siteDir, state.baseUrl, keyUrl) : undefined;
  const payloads = indexNowPayloads(
    pending.map((item) => item.url),
    { key: settings.key, ...(keyLocation !== undefined ? { keyLocation } : {}) },
  );
  const summary: SubmitSummary = { endpoint: settings.endpoint, dryRun: settings.dryRun, pending: counts, payloads: [], recorded: 0 };

  if (keyFile !== undefined && !settings.dryRun) {
    await writeFileAtomic(keyFile, settings.key);
    summary.keyFile = keyFile;
    say(`indexnow: wrote the key file ${keyFile}; publish it with the site, at ${keyUrl}\n`);
  }
  if (payloads.length === 0) {
    say('indexnow: nothing to submit: no URL was added, changed or removed since the last accepted submission\n');
    return { ok: true, summary };
  }
  const what = `${formatCount(counts.added)} added, ${formatCount(counts.updated)} updated, ${formatCount(counts.removed)} removed`;
  if (settings.dryRun) {
    if (context.json !== true) for (const payload of payloads) io.stdout.write(JSON.stringify(payload) + '\n');
    say(`indexnow: dry run: ${plural(pending.length, 'URL')} (${what}) in ${plural(payloads.length, 'payload')} for ${settings.endpoint}; nothing sent\n`);
    for (const body of payloads) summary.payloads.push({ host: body.host, urls: body.urlList.length, accepted: false, code: 'indexnow/dry-run', message: 'not sent (dry run)', keyFile: indexNowKeyFileUrl(body), body });
    return { ok: true, summary };
  }

  say(`indexnow: submitting ${plural(pending.length, 'URL')} (${what}) to ${settings.endpoint}\n`);
  const results = await submitIndexNow(payloads, {
    endpoint: settings.endpoint,
    userAgent: settings.userAgent ?? userAgent(),
    ...definedOnly({ retries: settings.retries, fetch: io.fetch }),
    // Saved after each accepted payload: a run stopped half-way does not send it again next time.
    onResult: async (result: IndexNowResult) => {
      if (!result.accepted) return;
      recordAnnounced(state.pages, state.announced, result.payload.urlList);
      summary.recorded += result.payload.urlList.length;
      state.lastSubmission = new Date().toISOString();
      await saveState(context.statePath, state);
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
      const said = result.response !== undefined ? `; the endpoint said: ${result.response}` : '';
      problems.print({ file: settings.endpoint, severity: 'error', code: result.code, message: `${payload.host}, ${plural(payload.urlList.length, 'URL')}: ${result.message}${said}`, ...(result.hint !== undefined ? { hint: result.hint } : {}) });
    }
  }
  return { ok, summary };
}

/**
 * The file of `siteDir` (served at `baseUrl`) that the engine fetches as `keyUrl`; `ERR_SITEMAP_OPTION`
 * when no file there is served at it (another host, above the base URL, or a name to percent-decode).
 */
function keyFilePath(siteDir: string, baseUrl: string, keyUrl: string): string {
  const url = new URL(keyUrl);
  const base = new URL(baseUrl);
  const path = url.pathname.slice(base.pathname.length);
  if (url.host !== base.host || !url.pathname.startsWith(base.pathname) || !/^[\w.~-]+(?:\/[\w.~-]+)*$/.test(path)) {
    throw new SitemapError('ERR_SITEMAP_OPTION', `--write-key-file writes into ${siteDir}, served at ${baseUrl}; --key-location ${keyUrl} is not a file there: publish the key file at that address yourself (without --write-key-file), or give a --key-location below ${baseUrl}`);
  }
  return join(siteDir, path);
}

export async function runIndexNow(argv: string[], io: CliIo): Promise<number> {
  const line = await commandLine(INDEXNOW, argv, io, (args) => indexNowSettings(args, args.text('key')));
  if ('exit' in line) return line.exit;
  const { args, checked: settings } = line;
  const outDir = resolve(io.cwd, args.text('out') ?? '.');
  const state = args.text('state');
  const statePath = state !== undefined ? resolve(io.cwd, state) : join(outDir, DEFAULT_STATE_PATH);
  const json = args.choice('format') === 'json';
  try {
    const { ok, summary } = await submitPending(settings, { statePath, siteDir: outDir, io, quiet: args.flag('quiet') || json, json });
    if (json) io.stdout.write(JSON.stringify({ ...summary, ok }, null, 2) + '\n');
    return ok ? EXIT_OK : EXIT_PROBLEMS;
  } catch (error) {
    return fatalFailure(io, 'indexnow', error);
  }
}
