// The CLI as a library function: run(argv, io) → exit code. The bin only sets process.exitCode.

import { EXIT_FATAL, EXIT_OK, fatal, type CliIo } from './io.js';
import { version } from './version.js';
import type { CommandSpec } from './command.js';

type Command = (argv: string[], io: CliIo) => Promise<number>;

// Each command's module is loaded only when it runs: loading all of them took longer than Node's own
// start (measured: `sitemapkit --version` 0.16 s against 0.065 s for `node -e 0`).
const COMMANDS: Readonly<Record<string, () => Promise<Command>>> = {
  generate: async () => (await import('./commands/generate.js')).runGenerate,
  read: async () => (await import('./commands/read.js')).runRead,
  validate: async () => (await import('./commands/validate.js')).runValidate,
  discover: async () => (await import('./commands/discover.js')).runDiscover,
  build: async () => (await import('./commands/build.js')).runBuild,
  serve: async () => (await import('./commands/serve.js')).runServe,
  robots: async () => (await import('./commands/robots.js')).runRobots,
  indexnow: async () => (await import('./commands/indexnow.js')).runIndexNow,
  diff: async () => (await import('./commands/diff.js')).runDiff,
  report: async () => (await import('./commands/report.js')).runReport,
  index: async () => (await import('./commands/index-command.js')).runIndex,
  apply: async () => (await import('./commands/apply.js')).runApply,
  queue: async () => (await import('./commands/queue.js')).runQueue,
  worker: async () => (await import('./commands/worker.js')).runWorker,
};

/** The top-level help, or command `name`'s: from the declarations (data only: no command module, nor the package under it, is loaded). */
async function help(name?: string): Promise<string> {
  const [{ COMMAND_SPECS }, { HELP_WIDTH, commandHelp, wrap }] = await Promise.all([import('./declarations.js'), import('./command.js')]);
  if (name !== undefined) return commandHelp(COMMAND_SPECS.find((c) => c.name === name) as CommandSpec);
  const width = Math.max(...COMMAND_SPECS.map((c) => c.name.length));
  // Each summary within HELP_WIDTH columns, continued under itself.
  const indent = ' '.repeat(width + 4);
  const list = COMMAND_SPECS.map((c) => `  ${c.name.padEnd(width)}  ${wrap(c.summary, HELP_WIDTH - indent.length).join(`\n${indent}`)}`).join('\n');
  return `Usage: sitemapkit <command> [options]

The Sitemap protocol toolkit (sitemaps.org 0.9).

Commands:
${list}

Run "sitemapkit <command> --help" for a command's options (all of them: docs/cli.md).
Options: -h, --help  this help;  -V, --version  the version.

Exit status: 0 clean, 1 problems found in the input, 2 usage or fatal error, 130 interrupted
(Ctrl-C), 143 terminated (SIGTERM).
`;
}

async function unknownCommand(name: string, io: CliIo): Promise<number> {
  const { closestName } = await import('./command.js');
  const closest = closestName(name, Object.keys(COMMANDS));
  // `sitemapkit -q validate …` (git -C style): no option comes before the command here.
  const option = name.startsWith('-');
  const hint = option ? '; options follow the command: sitemapkit <command> [options]' : closest !== undefined ? `; did you mean ${closest}?` : `; commands: ${Object.keys(COMMANDS).join(', ')}`;
  io.stderr.write(`sitemapkit: unknown ${option ? 'option' : 'command'} ${JSON.stringify(name)}${hint}\nRun "sitemapkit --help" for usage.\n`);
  return EXIT_FATAL;
}

export async function run(argv: string[], io: CliIo): Promise<number> {
  const [first, ...rest] = argv;
  // Only COMMANDS' own names: `constructor` or `toString` is no command.
  const command = first !== undefined && Object.hasOwn(COMMANDS, first) ? COMMANDS[first] : undefined;
  // `sitemapkit build --version` (or --help), alone after a command as --help is, is asked of the command too.
  const asked = command !== undefined && rest.length === 1 ? rest[0] : first;
  if (asked === '-V' || asked === '--version') {
    io.stdout.write(`${version()}\n`);
    return EXIT_OK;
  }
  // `help NAME` is NAME's help; the help of no command is the usage error of an unknown one.
  const topic = first === 'help' ? rest[0] : command !== undefined ? first : undefined;
  if (topic !== undefined && !Object.hasOwn(COMMANDS, topic)) return unknownCommand(topic, io);
  if (first === undefined || asked === '-h' || asked === '--help' || first === 'help') {
    io.stdout.write(await help(topic));
    return first === undefined ? EXIT_FATAL : EXIT_OK;
  }
  if (command === undefined) return unknownCommand(first, io);
  try {
    return await (await command())(rest, io);
  } catch (error) {
    // Never a stack trace for the user: one line, and the code (its rule, if any) for a bug report.
    const e = error as { message?: string; code?: string; rule?: string };
    return fatal(io, first, `${e?.message ?? String(error)}${e?.code !== undefined ? ` (${e.rule ?? e.code})` : ''}`);
  }
}
