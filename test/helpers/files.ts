// The XML documents the differential tests run over: every fixture and every corpus file.

import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

export const CORPUS = fileURLToPath(new URL('../../../shared/corpus/', import.meta.url));
export const FIXTURES = fileURLToPath(new URL('../fixtures/', import.meta.url));

/** Files under `dirs` (recursively, missing ones skipped) whose names match `pattern`, sorted. */
export function filesUnder(dirs: readonly string[], pattern: RegExp): string[] {
  const out: string[] = [];
  const walk = (dir: string): void => {
    if (!existsSync(dir)) return;
    for (const e of readdirSync(dir, { withFileTypes: true })) {
      const p = join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (pattern.test(e.name)) out.push(p);
    }
  };
  for (const dir of dirs) walk(dir);
  return out.sort();
}

/** Every XML, RSS and Atom fixture and corpus file (not gzipped). */
export function xmlFixturesAndCorpus(): string[] {
  return filesUnder([FIXTURES, CORPUS], /\.(xml|rss|atom)$/i);
}
