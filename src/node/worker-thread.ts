// A worker thread on a module next to its caller: `entry` names the built module (`./x.js`, rewritten
// for the CLI's bundles by scripts/bundle-cli.js); `from` is the caller's import.meta.url.

import { Worker, type WorkerOptions } from 'node:worker_threads';

export function startWorker(entry: URL, from: string, options: WorkerOptions = {}): Worker {
  if (!from.endsWith('.ts')) return new Worker(entry, options);
  // Run from the TypeScript sources (the tests, through tsx): Node 20 does not apply --import hooks
  // to a worker's entry module, so the worker registers tsx itself before loading it.
  const source = JSON.stringify(entry.href.replace(/\.js$/, '.ts'));
  return new Worker(`import('tsx/esm/api').then((tsx) => { tsx.register(); return import(${source}); });`, { ...options, eval: true });
}
