// Old build against new build in one session (issue 24: "every benchmark is run before and after, old
// and new builds interleaved in the same session"). `--baseline DIR` names another checkout's dist/;
// each row then runs for both builds, one after the other in every round, and the scripts print
// new ÷ old. A baseline can be made without touching this checkout:
//   mkdir /tmp/base && git archive REV | tar -x -C /tmp/base && ln -s "$PWD/node_modules" /tmp/base/node_modules \
//     && (cd /tmp/base && npx tsc -p tsconfig.build.json)
//   node bench/validate.js --baseline /tmp/base/dist

import { existsSync } from 'node:fs';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

/** This checkout's dist/. */
export const OWN_DIST = join(dirname(dirname(dirname(fileURLToPath(import.meta.url)))), 'dist');

/** The bin in a build: bin.cjs (scripts/bundle-cli.js), or bin.js in a build made before it. */
export const cliBin = (dist) => (existsSync(join(dist, 'cli', 'bin.cjs')) ? join(dist, 'cli', 'bin.cjs') : join(dist, 'cli', 'bin.js'));
/** The package's entry in a build: the bundle (scripts/bundle-library.js), or tsc's index.js in a build made before it. */
export const distIndex = (dist) => (existsSync(join(dist, 'lib', 'index.js')) ? join(dist, 'lib', 'index.js') : join(dist, 'index.js'));

/** The builds to run: `new` (this checkout's dist/) and, with a baseline, `old`. Throws when one is not built. */
export function buildsOf(baseline) {
  const builds = [{ build: 'new', dist: OWN_DIST }];
  if (baseline !== undefined) builds.push({ build: 'old', dist: resolve(baseline) });
  for (const { build, dist } of builds) {
    if (!existsSync(distIndex(dist)) || !existsSync(cliBin(dist))) throw new Error(`${dist} holds no build (index.js, cli/bin.cjs): ${build === 'new' ? 'run `npm run build`' : 'build the baseline checkout first'}`);
  }
  return builds;
}

/** A contender's name for one build: `cli` for the new one, `cli@old` for the baseline. */
export const tagged = (name, build) => (build === 'new' ? name : `${name}@${build}`);

/**
 * New ÷ old for every contender run with both builds: `{ [input]: { [name]: ratio } }`, of the times
 * `pick` chooses (below 1: the new build is faster). Empty without a baseline.
 */
export function newOverOld(results, pick) {
  const out = {};
  for (const [key, contenders] of Object.entries(results)) {
    for (const [name, r] of Object.entries(contenders)) {
      const old = contenders[`${name}@old`];
      if (name.includes('@') || old === undefined) continue;
      (out[key] ??= {})[name] = pick(r) / pick(old);
    }
  }
  return out;
}

/** Markdown lines (a blank line first) for newOverOld's table; none when there is no baseline. */
export function newOverOldTable(ratios, how, baseline) {
  const names = [...new Set(Object.values(ratios).flatMap((r) => Object.keys(r)))];
  if (names.length === 0) return [];
  const lines = ['', `New build ÷ old build (${baseline}), ${how}; below 1.00 the new build is faster, above 1.10 a loss to explain:`, '', `| input | ${names.join(' | ')} |`, `| --- |${names.map(() => ' ---: |').join('')}`];
  for (const [key, r] of Object.entries(ratios)) lines.push(`| ${key} | ${names.map((n) => (r[n] !== undefined ? r[n].toFixed(2) : '')).join(' | ')} |`);
  return lines;
}
