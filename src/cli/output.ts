// Output helpers shared by the commands that print entries (read, discover).

import type { Diagnostic } from '../core/diagnostics.js';
import type { DateInput } from '../core/model.js';
import type { OutputStream } from './io.js';

/** Buffers output and hands it to the stream in large writes, waiting for 'drain' when it asks to. */
export class Output {
  private buf = '';
  private broken = false;
  private readonly onError = (): void => {
    this.broken = true;
  };
  constructor(private readonly stream: OutputStream) {
    // A closed pipe (`sitemapkit read big.xml | head`) is an 'error' event: stop writing, don't crash.
    (stream as { on?: (event: string, fn: () => void) => unknown }).on?.('error', this.onError);
  }

  /** Removes the error listener. */
  close(): void {
    (this.stream as { off?: (event: string, fn: () => void) => unknown }).off?.('error', this.onError);
  }

  write(text: string): void {
    this.buf += text;
  }

  get closed(): boolean {
    return this.broken;
  }

  async flush(): Promise<void> {
    if (this.buf.length === 0 || this.broken) {
      this.buf = '';
      return;
    }
    const text = this.buf;
    this.buf = '';
    const stream = this.stream as OutputStream & { once?: (event: string, fn: (...args: unknown[]) => void) => unknown; off?: (event: string, fn: (...args: unknown[]) => void) => unknown };
    let ok: unknown;
    try {
      ok = stream.write(text);
    } catch {
      this.broken = true;
      return;
    }
    if (ok !== false || typeof stream.once !== 'function') return;
    await new Promise<void>((resolve) => {
      const done = (): void => {
        stream.off?.('drain', done);
        stream.off?.('error', fail);
        stream.off?.('close', fail);
        resolve();
      };
      const fail = (): void => {
        this.broken = true;
        done();
      };
      stream.once?.('drain', done);
      stream.once?.('error', fail);
      stream.once?.('close', fail);
    });
  }
}

/** A lastmod as written (strings unchanged), a Date as ISO 8601. */
export function dateText(value: DateInput | undefined): string {
  if (value === undefined) return '';
  if (typeof value === 'string') return value;
  const date = typeof value === 'number' ? new Date(value) : value;
  return Number.isNaN(date.getTime()) ? String(value) : date.toISOString();
}

/** RFC 4180 quoting, when needed. */
export function csvField(value: string): string {
  return /[",\r\n]/.test(value) || value.startsWith(' ') || value.endsWith(' ') ? `"${value.replace(/"/g, '""')}"` : value;
}

/** `FILE:LINE:COL code severity message (hint)`, one line (read and discover print problems so). */
export function renderDiagnostic(d: Diagnostic, file: string): string {
  const hint = d.hint !== undefined ? ` (${d.hint})` : '';
  const message = d.message.replace(/[\r\n]+/g, ' ');
  return `${d.file ?? file}:${d.line ?? 0}:${d.column ?? 0} ${d.code} ${d.severity} ${message}${hint}\n`;
}
