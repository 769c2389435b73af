// docs/cli.md, generated from the command declarations (`npm run docs:cli`); a test checks it is current.

import { commandHelp, optionHelp, optionSynopsis, valueDescription, type OptionSpec } from './command.js';
import { COMMAND_SPECS } from './declarations.js';

export function cliReference(): string {
  const out: string[] = [
    '# sitemapkit command-line reference',
    '',
    '<!-- Generated from src/cli/declarations.ts by `npm run docs:cli`; do not edit by hand. -->',
    '',
    'Every command prints this help with `sitemapkit <command> --help`. Exit status, in every',
    'command: 0 clean, 1 problems found in the input, 2 usage or fatal error (130 interrupted by',
    'Ctrl-C, 143 terminated by SIGTERM).',
    '',
    ...COMMAND_SPECS.map((spec) => `- [\`sitemapkit ${spec.name}\`](#sitemapkit-${spec.name}): ${spec.summary}`),
    '',
    '## Common options',
    '',
    'These options are spelled, parsed and documented the same in every command that takes them.',
    'A size takes K, M or G (powers of 1024: `512K`, `50M`); a count is a whole number, never K, M or',
    'G; both may group thousands with `_` or `,` (`50_000`). An old spelling in brackets keeps working.',
    '',
    '| Option | Value | Meaning | Commands |',
    '| --- | --- | --- | --- |',
  ];
  const shared = new Map<string, { option: OptionSpec; commands: string[] }>();
  for (const spec of COMMAND_SPECS) {
    for (const option of spec.options) {
      if (option.group === undefined) continue;
      const entry = shared.get(option.name) ?? { option, commands: [] };
      entry.commands.push(spec.name);
      shared.set(option.name, entry);
    }
  }
  for (const { option, commands } of shared.values()) {
    const aliases = (option.aliases ?? []).map((a) => `\`--${a.name}\`${a.value !== undefined ? ` (= \`--${option.name} ${a.value}\`)` : ''}`);
    // --format's choices are each command's own.
    const value = option.kind === 'flag' ? '' : option.name === 'format' ? 'per command' : valueDescription(option);
    const name = `\`${optionSynopsis(option)}\`${aliases.length > 0 ? ` [${aliases.join(', ')}]` : ''}`;
    out.push(`| ${name} | ${value} | ${option.help.replace(/\|/g, '\\|')} | ${commands.join(', ')} |`);
  }
  for (const spec of COMMAND_SPECS) {
    out.push('', `## sitemapkit ${spec.name}`, '', `${spec.summary[0]?.toUpperCase()}${spec.summary.slice(1)}.`, '', '```text', commandHelp(spec).trimEnd(), '```');
    if (spec.details !== undefined) out.push('', spec.details);
    const noted = spec.options.filter((o) => o.group !== undefined && o.note !== undefined);
    if (noted.length > 0) {
      out.push('', `Common options in \`${spec.name}\`:`, '');
      for (const option of noted) out.push(`- \`--${option.name}\`: ${optionHelp(option)}`);
    }
  }
  return out.join('\n') + '\n';
}
