// Runs every test/**/*.test.ts with Node's test runner through tsx.
// Node 20's --test does not expand globs, so the files are listed here. Files run two (or one per core) at
// a time: much of the suite waits on child processes and servers, and Node's default on two cores is one.
import { readdirSync, statSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { spawnSync } from 'node:child_process';

function collect(dir, out) {
  for (const name of readdirSync(dir).sort()) {
    const path = join(dir, name);
    if (name === 'fixtures' || name === 'node_modules') continue;
    if (statSync(path).isDirectory()) collect(path, out);
    else if (name.endsWith('.test.ts')) out.push(path);
  }
  return out;
}

const filter = process.argv.slice(2);
const files = collect('test', []).filter((f) => filter.length === 0 || filter.some((s) => f.includes(s)));
if (files.length === 0) {
  console.error('no test files matched');
  process.exit(2);
}
const result = spawnSync(process.execPath, ['--import', 'tsx', '--test', `--test-concurrency=${Math.max(2, availableParallelism())}`, '--test-reporter=spec', ...files], {
  stdio: 'inherit',
});
process.exit(result.status ?? 1);
