// A request deadline counted in time the event loop spent WAITING, not working (issue #5: "time spent
// parsing other documents never counts against a request"): parsing is synchronous, and charging it to
// a slow-looking request would fail healthy servers. `eventLoopUtilization().idle` is the loop's
// cumulative I/O wait; the deadline fires when the idle time since the request started reaches the limit.

import { performance } from 'node:perf_hooks';

function idleMs(): number {
  return performance.eventLoopUtilization().idle;
}

export class IdleDeadline {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private readonly startIdle: number;
  /** Idle time not charged (the caller was holding the request back, e.g. for backpressure). */
  private excused = 0;
  private pausedAt: number | undefined;
  private done = false;

  constructor(
    private readonly limitMs: number,
    private readonly onExpire: () => void,
  ) {
    this.startIdle = idleMs();
    this.arm(limitMs);
  }

  /** Idle milliseconds charged so far. */
  used(): number {
    const now = this.pausedAt ?? idleMs();
    return now - this.startIdle - this.excused;
  }

  private arm(ms: number): void {
    this.timer = setTimeout(() => this.check(), Math.max(1, Math.ceil(ms)));
  }

  private check(): void {
    if (this.done || this.pausedAt !== undefined) return;
    const left = this.limitMs - this.used();
    if (left <= 0) {
      this.done = true;
      this.onExpire();
    } else {
      this.arm(left);
    }
  }

  /** Stops charging time (the request is held back by its reader, not by the server). */
  pause(): void {
    if (this.done || this.pausedAt !== undefined) return;
    this.pausedAt = idleMs();
    clearTimeout(this.timer);
  }

  resume(): void {
    if (this.done || this.pausedAt === undefined) return;
    this.excused += idleMs() - this.pausedAt;
    this.pausedAt = undefined;
    this.arm(Math.max(1, this.limitMs - this.used()));
  }

  /** `wait`, its time not charged (paused, then resumed however it settles). */
  async held<T>(wait: Promise<T>): Promise<T> {
    this.pause();
    try {
      return await wait;
    } finally {
      this.resume();
    }
  }

  clear(): void {
    this.done = true;
    clearTimeout(this.timer);
  }
}
