// A command's declaration gives its parsing, help and usage errors, so that commands cannot drift
// apart. Not node:util parseArgs: its messages are neither one line nor helpful.

import { UsageError, usageFailure } from './args.js';
import { EXIT_OK, type CliIo } from './io.js';

/** How an option's value is read; the same kind is parsed the same way in every command. */
type OptionKind =
  | 'flag' // no value
  | 'text' // any string
  | 'choice' // one of `choices`
  | 'size' // a whole number above 0 with an optional K, M or G (powers of 1024)
  | 'count' // a whole number, `_` or `,` between digits allowed; never K, M or G
  | 'seconds' // a number of seconds (30, 0.5), parsed to milliseconds
  | 'header'; // an HTTP header value: printable ASCII on one line (RFC 9110 §5.5)

/** The groups of options shared by several commands, listed together in every help. */
type SharedGroup = 'input' | 'limits' | 'network' | 'output' | 'verbosity';

/** Another spelling of an option; with `value`, a flag that stands for `--NAME VALUE`. */
interface OptionAlias {
  readonly name: string;
  readonly value?: string;
}

export interface OptionSpec {
  readonly name: string;
  readonly short?: string;
  readonly kind: OptionKind;
  /** The value's placeholder in help (URL, DIR, N…); a choice without one shows its choices. */
  readonly value?: string;
  readonly choices?: readonly string[];
  /** Bounds of a count (default: 1 and no maximum); `min` of a number of seconds too. */
  readonly min?: number;
  readonly max?: number;
  readonly multiple?: boolean;
  /** Old spellings that keep working; help names them. */
  readonly aliases?: readonly OptionAlias[];
  /** An old name that another command gives another meaning: refused, this option suggested. */
  readonly formerly?: { readonly name: string; readonly why: string };
  readonly help: string;
  /** What a shared option does in this command in particular (appended to `help`). */
  readonly note?: string;
  readonly group?: SharedGroup;
}

export interface CommandSpec {
  readonly name: string;
  /** One line for the top-level help. */
  readonly summary: string;
  /** What follows "sitemapkit NAME" in the usage line. */
  readonly usage: string;
  readonly intro: string;
  readonly positionals: boolean;
  /** Without positionals: what the usage error for one adds (e.g. where the output folder goes). */
  readonly unexpectedArgument?: string;
  readonly options: readonly OptionSpec[];
  readonly notes?: string;
  readonly exit: string;
  readonly examples: readonly string[];
  /** The long explanation: in docs/cli.md only, so that the help fits one screen. */
  readonly details?: string;
}

// ---------------------------------------------------------------------------------------------------
// Parsing.

type Value = string | number | boolean | string[];

/** The parsed command line: values by the options' long names, checked against the declaration. */
export class ParsedArgs {
  constructor(
    private readonly spec: CommandSpec,
    private readonly values: ReadonlyMap<string, Value>,
    readonly positionals: string[],
  ) {}

  /** A name the declaration does not have (or not of this kind) is a bug of the command, not of the user. */
  private get(name: string, kinds: readonly OptionKind[], multiple?: boolean): Value | undefined {
    const option = this.spec.options.find((o) => o.name === name);
    if (option === undefined || !kinds.includes(option.kind) || (multiple !== undefined && (option.multiple === true) !== multiple)) {
      throw new Error(`sitemapkit ${this.spec.name} has no ${multiple === true ? 'repeatable ' : ''}${kinds.join('/')} option --${name}`);
    }
    return this.values.get(name);
  }

  /** For code shared by commands that declare only part of a group. */
  declares(name: string): boolean {
    return this.spec.options.some((o) => o.name === name);
  }

  has(name: string): boolean {
    return this.get(name, ['flag', 'text', 'header', 'choice', 'size', 'count', 'seconds']) !== undefined;
  }

  flag(name: string): boolean {
    return this.get(name, ['flag']) === true;
  }

  text(name: string): string | undefined {
    return this.get(name, ['text', 'header'], false) as string | undefined;
  }

  list(name: string): string[] {
    return (this.get(name, ['text'], true) as string[] | undefined) ?? [];
  }

  choice<T extends string>(name: string): T | undefined {
    return this.get(name, ['choice']) as T | undefined;
  }

  /** A size or a count as a number, a duration in milliseconds. */
  number(name: string): number | undefined {
    return this.get(name, ['size', 'count', 'seconds']) as number | undefined;
  }
}

/** Parses `argv` by `spec` (`utf8`: see CliIo.argvUtf8); a usage problem throws a UsageError of one line. */
export function parseCommand(spec: CommandSpec, argv: readonly string[], utf8 = false): ParsedArgs {
  const values = new Map<string, Value>();
  const positionals: string[] = [];
  const byName = new Map<string, { option: OptionSpec; alias?: OptionAlias }>();
  for (const option of spec.options) {
    byName.set(option.name, { option });
    for (const alias of option.aliases ?? []) byName.set(alias.name, { option, alias });
  }
  const set = (option: OptionSpec, raw: string | true, spelled: string): void => {
    const value = raw === true ? true : parseValue(option, raw, spelled, utf8);
    if (option.multiple === true) values.set(option.name, [...((values.get(option.name) as string[] | undefined) ?? []), value as string]);
    else values.set(option.name, value);
  };

  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] as string;
    if (arg === '--') {
      positionals.push(...argv.slice(i + 1));
      break;
    }
    if (arg.startsWith('--')) {
      const eq = arg.indexOf('=');
      const name = arg.slice(2, eq < 0 ? undefined : eq);
      const found = byName.get(name);
      if (found === undefined) throw new UsageError(unknownOption(`--${name}`, spec));
      const { option, alias } = found;
      const spelled = `--${name}`;
      if (option.kind === 'flag' || alias?.value !== undefined) {
        if (eq >= 0) throw new UsageError(`${spelled} takes no value`);
        set(option, alias?.value ?? true, spelled);
        continue;
      }
      let raw: string | undefined;
      if (eq >= 0) raw = arg.slice(eq + 1);
      // A negative number is a value (no option starts with a digit): its check then says what is wrong with it.
      else if (i + 1 < argv.length && (!(argv[i + 1] as string).startsWith('-') || argv[i + 1] === '-' || /^-\d/.test(argv[i + 1] as string))) raw = argv[++i];
      if (raw === undefined) throw new UsageError(`${spelled} needs a value: ${valueDescription(option)}`);
      set(option, raw, spelled);
      continue;
    }
    if (arg.startsWith('-') && arg !== '-') {
      // Short flags, combinable: -qv. Unknown from its first letter, it may be a long option with one dash (-base-url).
      for (const letter of arg.slice(1)) {
        const option = spec.options.find((o) => o.short === letter);
        if (option === undefined) throw new UsageError(unknownOption(letter === arg[1] ? arg : `-${letter}`, spec));
        set(option, true, `-${letter}`);
      }
      continue;
    }
    positionals.push(arg);
  }
  // Here, not in the loop: an argument after -- is one too.
  if (!spec.positionals && positionals.length > 0) throw new UsageError(`unexpected argument ${JSON.stringify(positionals[0])}${spec.unexpectedArgument === undefined ? '' : `; ${spec.unexpectedArgument}`}`);
  // "" names no file (POSIX: ENOENT); resolved, it would be the current folder.
  if (positionals.some((p) => p.trim() === '')) throw new UsageError('an argument is empty (an unset variable?)');
  return new ParsedArgs(spec, values, positionals);
}

const UNITS: Readonly<Record<string, number>> = { '': 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3 };
// A whole number, its thousands grouped by `_` or `,` or not (52,428,800): `1,5` is no number here.
const COUNT = /^(?:\d{1,3}(?:[_,]\d{3})+|\d+)$/;
const SIZE = /^(\d{1,3}(?:[_,]\d{3})+|\d+)(?:([kmg])(?:i?b)?)?$/i;

function parseValue(option: OptionSpec, raw: string, spelled: string, utf8: boolean): Value {
  const value = raw.trim();
  const bad = (): never => {
    throw new UsageError(`${spelled} needs ${valueDescription(option)}, got ${JSON.stringify(raw)}`);
  };
  // An empty path would be the current folder, an empty --host every interface; a repeatable
  // option's values are checked by its command.
  if (value === '' && option.multiple !== true) throw new UsageError(`${spelled} needs a value: ${valueDescription(option)}`);
  switch (option.kind) {
    case 'choice':
      if (!(option.choices ?? []).includes(value)) throw new UsageError(`${spelled} must be one of ${(option.choices ?? []).join(', ')}, got ${JSON.stringify(raw)}`);
      return value;
    case 'size': {
      const m = SIZE.exec(value);
      const n = m === null ? NaN : Number((m[1] as string).replace(/[_,]/g, '')) * (UNITS[(m[2] ?? '').toLowerCase()] as number);
      if (!Number.isSafeInteger(n) || n < 1) bad();
      return n;
    }
    case 'count': {
      if (!COUNT.test(value)) bad();
      const n = Number(value.replace(/[_,]/g, ''));
      if (!Number.isSafeInteger(n) || n < (option.min ?? 1) || (option.max !== undefined && n > option.max)) bad();
      return n;
    }
    case 'seconds': {
      // Milliseconds: a value that rounds to 0 (0.0001) would mean no time at all.
      const ms = /^(?=\.?\d)\d*\.?\d*$/.test(value) ? Math.round(Number(value) * 1000) : 0;
      if (ms < Math.max(1, (option.min ?? 0) * 1000)) bad();
      // A Node timer holds 2^31 - 1 ms (24.8 days) at most; a longer one fires after 1 ms.
      return Math.min(ms, 2 ** 31 - 1);
    }
    case 'header':
      // node:http refuses anything else when it sends the header.
      if (!/^[\t\x20-\x7e]*$/.test(raw)) throw new UsageError(`${spelled} ${JSON.stringify(raw)} is not a header value: printable ASCII on one line (RFC 9110 §5.5)`);
      return raw;
    default:
      if (!/^(FILE|DIR|PATH)\b/.test(option.value ?? '')) return raw;
      // "-" means standard input or output (curl -o -, tar -f -): taken for a name, it made a file "-".
      if (value === '-') throw new UsageError(`${spelled} needs a path, got "-" (standard input or output cannot stand for a ${option.value} here; ./- is a file named -)`);
      // Node reads argv as UTF-8, U+FFFD for a byte that is not: `--out $'g\xff'` wrote into "g\uFFFD".
      if (!utf8 && raw.includes('\uFFFD')) throw new UsageError(`${spelled} ${JSON.stringify(raw)}: the name is not valid UTF-8 (Node reads U+FFFD in its place), so it would name another file; use a UTF-8 name`);
      return raw;
  }
}

/** What a value must be, in the words of every usage message and of the docs. */
export function valueDescription(option: OptionSpec): string {
  switch (option.kind) {
    case 'choice':
      return `one of ${(option.choices ?? []).join(', ')}`;
    case 'size':
      return 'a whole number above 0 (K, M, G allowed)';
    case 'count': {
      const min = option.min ?? 1;
      if (option.max !== undefined) return `a whole number from ${min} to ${option.max}`;
      return min === 0 ? 'a whole number (0 or more)' : `a whole number above ${min - 1}`;
    }
    case 'seconds':
      return option.min === undefined ? 'a number of seconds above 0' : `a number of seconds, at least ${option.min}`;
    default:
      return option.value ?? 'a value';
  }
}

function unknownOption(spelled: string, spec: CommandSpec): string {
  // --json where only JSON Lines is a format (read, discover): the nearest spelling would mislead.
  const formats = spec.options.find((o) => o.name === 'format')?.choices ?? [];
  if (spelled === '--json' && !formats.includes('json') && formats.includes('jsonl')) return 'unknown option --json; did you mean --format jsonl?';
  if (spelled === '--version' || spelled === '-V') return `unknown option ${spelled}; the version: sitemapkit --version`;
  const renamed = spec.options.find((o) => o.formerly !== undefined && `--${o.formerly.name}` === spelled);
  if (renamed?.formerly !== undefined) return `unknown option ${spelled}; did you mean --${renamed.name}? (renamed: ${renamed.formerly.why})`;
  const names = spec.options.flatMap((o) => [`--${o.name}`, ...(o.aliases ?? []).map((a) => `--${a.name}`)]);
  const closest = closestName(spelled.startsWith('--') ? spelled : `-${spelled}`, names);
  return `unknown option ${spelled}${closest !== undefined ? `; did you mean ${closest}?` : ''}`;
}

/** The name nearest to `wanted` by edit distance, when it is near enough to be a typo of it. */
export function closestName(wanted: string, names: readonly string[]): string | undefined {
  // The start of one name only (--dry, val) is that name, however far by edit distance.
  const starting = names.filter((name) => name.startsWith(wanted.toLowerCase()));
  if (starting.length === 1) return starting[0];
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const name of names) {
    // Names are lower case: --BASE-URL is a typo of --base-url too.
    const d = editDistance(wanted.toLowerCase(), name);
    if (d < bestDistance) {
      best = name;
      bestDistance = d;
    }
  }
  // "--max-byte" → "--max-bytes"; not "--bogus" → "--json".
  return bestDistance <= Math.max(2, Math.floor((wanted.length - 2) / 3)) ? best : undefined;
}

function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + (a[i - 1] === b[j - 1] ? 0 : 1));
    }
    previous = current;
  }
  return previous[b.length] as number;
}

// ---------------------------------------------------------------------------------------------------
// Help.

/** Help lines fit this many columns. */
export const HELP_WIDTH = 100;
const LEFT_MAX = 26;

/** The left column of an option: `-q, --quiet`, `--format jsonl|csv`, `--max-bytes SIZE`. */
export function optionSynopsis(option: OptionSpec): string {
  const value = option.kind === 'flag' ? '' : ` ${option.kind === 'choice' && option.value === undefined ? (option.choices ?? []).join('|') : (option.value ?? 'VALUE')}`;
  return `${option.short !== undefined ? `-${option.short}, ` : ''}--${option.name}${value}`;
}

/** The help words of an option in a command: shared words, the command's note, the aliases. */
export function optionHelp(option: OptionSpec): string {
  const aliases = (option.aliases ?? []).map((a) => (a.value !== undefined ? `--${a.name} is --${option.name} ${a.value}` : `also --${a.name}`));
  if (option.formerly !== undefined) aliases.push(`formerly --${option.formerly.name}`);
  return (option.note === undefined ? option.help : `${option.help}; ${option.note}`) + (aliases.length > 0 ? ` (${aliases.join('; ')})` : '');
}

function optionLines(options: readonly OptionSpec[], all: readonly OptionSpec[]): string[] {
  const left = Math.min(LEFT_MAX, Math.max(...all.map((o) => optionSynopsis(o).length)));
  const indent = ' '.repeat(2 + left + 2);
  return options.flatMap((option) => {
    const synopsis = optionSynopsis(option);
    const [first, ...rest] = wrap(optionHelp(option), HELP_WIDTH - indent.length);
    // A synopsis wider than the left column has a line of its own, and the help starts below it.
    const head = synopsis.length > left ? [`  ${synopsis}`, indent + first] : [`  ${synopsis.padEnd(left)}  ${first}`];
    return [...head, ...rest.map((w) => indent + w)];
  });
}

/** `text` in lines of at most `width` columns, broken at spaces. */
export function wrap(text: string, width: number): string[] {
  const lines: string[] = [];
  for (const word of text.split(' ')) {
    const line = lines.at(-1);
    if (line !== undefined && line.length + 1 + word.length <= width) lines[lines.length - 1] = `${line} ${word}`;
    else lines.push(word);
  }
  return lines;
}

/** The `--help` text of a command: one screen of HELP_WIDTH columns. */
export function commandHelp(spec: CommandSpec): string {
  const own = spec.options.filter((o) => o.group === undefined);
  const shared = spec.options.filter((o) => o.group !== undefined);
  const parts = [`Usage: sitemapkit ${spec.name} ${spec.usage}`, spec.intro];
  if (own.length > 0) parts.push(['Options:', ...optionLines(own, spec.options)].join('\n'));
  parts.push(['Common options (the same in every command that has them):', ...optionLines(shared, spec.options)].join('\n'));
  if (spec.notes !== undefined) parts.push(spec.notes);
  parts.push(wrap(`Exit status: ${spec.exit.replace(/\s+/g, ' ')}`, HELP_WIDTH).join('\n'));
  parts.push(['Examples:', ...spec.examples.map((e) => `  ${e}`)].join('\n'));
  return parts.join('\n\n') + '\n';
}

export { definedOnly } from '../core/defined-only.js';

/** The arguments and what `check` made of them, or the exit code to return now. */
type CommandLine<T> = { readonly args: ParsedArgs; readonly checked: T } | { readonly exit: number };

/**
 * The start of every command: parses `argv`, prints the help for `--help`, and runs `check` (the usage
 * checks, and the settings they make). A UsageError is printed in one line (exit 2).
 */
export async function commandLine<T = undefined>(spec: CommandSpec, argv: readonly string[], io: CliIo, check?: (args: ParsedArgs) => T | Promise<T>): Promise<CommandLine<T>> {
  try {
    const args = parseCommand(spec, argv, io.argvUtf8);
    if (args.flag('help')) {
      io.stdout.write(commandHelp(spec));
      return { exit: EXIT_OK };
    }
    return { args, checked: (await check?.(args)) as T };
  } catch (error) {
    if (error instanceof UsageError) return { exit: usageFailure(io, spec.name, error.message) };
    throw error;
  }
}
