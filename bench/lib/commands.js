// Whole commands as a user runs them (`sitemapkit read FILE > /dev/null`), timed from spawn to exit by
// the parent; shared by bench/read.js and bench/validate.js.

import { spawn } from 'node:child_process';
import { closeSync, openSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { GNU_TIME, GNU_TIME_FORMAT, machineCpu, takeGnuTime } from './harness.js';

/**
 * Runs `argv` with its standard output on /dev/null (under GNU time when `gnuTime`); resolves with
 * `wallMs` (spawn to exit), `exitCode`, `stderr` (GNU time's line removed) and, under GNU time,
 * `peakRssKiB`, `childCpuMs`, `backgroundCores` and `stealCores`.
 */
export function runToDevNull(argv, { gnuTime = false, label = argv.join(' ') } = {}) {
  const command = gnuTime ? [GNU_TIME, '-f', GNU_TIME_FORMAT, ...argv] : argv;
  const devNull = openSync('/dev/null', 'w');
  const cpuBefore = machineCpu();
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(command[0], command.slice(1), { stdio: ['ignore', devNull, 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (d) => {
      if (stderr.length < 64 * 1024) stderr += d;
    });
    child.on('error', (error) => {
      closeSync(devNull);
      reject(new Error(`${label}: ${error.message}`));
    });
    child.on('close', (code, signal) => {
      const wallMs = performance.now() - started;
      closeSync(devNull);
      const result = { wallMs, exitCode: code ?? signal, peakRssKiB: null };
      if (gnuTime) stderr = takeGnuTime(result, stderr, cpuBefore) ?? stderr;
      result.stderr = stderr.trim();
      resolve(result);
    });
  });
}

/** Runs `argv` untimed and counts the lines of its standard output (a correctness check). */
export function countOutputLines(argv) {
  return new Promise((resolve, reject) => {
    const child = spawn(argv[0], argv.slice(1), { stdio: ['ignore', 'pipe', 'pipe'] });
    let lines = 0;
    let stderr = '';
    child.stdout.on('data', (d) => {
      for (let i = d.indexOf(10); i !== -1; i = d.indexOf(10, i + 1)) lines++;
    });
    child.stderr.setEncoding('utf8').on('data', (d) => (stderr += d));
    child.on('error', reject);
    child.on('close', (code) => resolve({ lines, exitCode: code, stderr: stderr.trim() }));
  });
}
