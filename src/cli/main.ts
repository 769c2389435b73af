// The CLI as a library function: run(argv, io) → exit code. The bin only sets process.exitCode.

import { EXIT_FATAL, EXIT_OK, type CliIo } from './io.js';
import { version } from './version.js';

type Command = (argv: string[], io: CliIo) => Promise<number>;

// Each command's module is loaded only when it runs: loading all of them took longer than Node's own
// start (measured: `sitemapkit --version` 0.16 s against 0.065 s for `node -e 0`).
const COMMANDS: Readonly<Record<string, { load: () => Promise<Command>; summary: string }>> = {
  generate: { load: async () => (await import('./commands/generate.js')).runGenerate, summary: 'write a sitemap set (split, gzipped, indexed) from URL lists' },
  read: { load: async () => (await import('./commands/read.js')).runRead, summary: 'print the entries of sitemaps (XML, index, RSS, Atom, text; gzip) and their problems' },
  validate: { load: async () => (await import('./commands/validate.js')).runValidate, summary: 'check sitemaps against the schemas and the protocol: codes, positions, fixes' },
  discover: { load: async () => (await import('./commands/discover.js')).runDiscover, summary: "find a site's sitemaps (robots.txt, well-known paths, indexes) and every URL in them" },
  build: { load: async () => (await import('./commands/build.js')).runBuild, summary: "write a built site's sitemaps: truthful lastmod, stable files, noindex/canonical/hreflang read from the pages" },
  robots: { load: async () => (await import('./commands/robots.js')).runRobots, summary: 'add or update the Sitemap: lines of a robots.txt, touching nothing else' },
  indexnow: { load: async () => (await import('./commands/indexnow.js')).runIndexNow, summary: 'submit the URLs added, changed or removed since the last build to IndexNow' },
};

function help(): string {
  const width = Math.max(...Object.keys(COMMANDS).map((c) => c.length));
  const list = Object.entries(COMMANDS)
    .map(([name, c]) => `  ${name.padEnd(width)}  ${c.summary}`)
    .join('\n');
  return `Usage: sitemapkit <command> [options]

The Sitemap protocol toolkit (sitemaps.org 0.9).

Commands:
${list}

Run "sitemapkit <command> --help" for a command's options.
Options: -h, --help  this help;  -V, --version  the version.

Exit status: 0 clean, 1 problems found in the input, 2 usage or fatal error.
`;
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  if (first === undefined || first === '-h' || first === '--help' || first === 'help') {
    const topic = first === 'help' && rest[0] !== undefined ? COMMANDS[rest[0]] : undefined;
    if (topic !== undefined) return (await topic.load())(['--help'], io);
    io.stdout.write(help());
    return first === undefined ? EXIT_FATAL : EXIT_OK;
  }
  if (first === '-V' || first === '--version') {
    io.stdout.write(`${version()}\n`);
    return EXIT_OK;
  }
  const command = COMMANDS[first];
  if (command === undefined) {
    io.stderr.write(`sitemapkit: unknown command ${JSON.stringify(first)}; commands: ${Object.keys(COMMANDS).join(', ')}\nRun "sitemapkit --help" for usage.\n`);
    return EXIT_FATAL;
  }
  try {
    return await (await command.load())(rest, io);
  } catch (error) {
    // Never a stack trace for the user: one line, and the code for a bug report.
    const e = error as { message?: string; code?: string };
    io.stderr.write(`sitemapkit ${first}: ${e?.message ?? String(error)}${e?.code !== undefined ? ` (${e.code})` : ''}\n`);
    return EXIT_FATAL;
  }
}
