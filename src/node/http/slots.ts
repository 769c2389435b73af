// Concurrency limits for HTTP requests: at most `total` at once, and at most `perHost` to one host
// (issue #5 "Fetching": per host 4, overall 16 by default). Waiters are served first come, first
// served among those whose host has room, so one busy host never holds back the others.

export type Release = () => void;

interface Waiter {
  host: string;
  grant: (release: Release) => void;
}

export class HostSlots {
  private active = 0;
  private readonly perHostActive = new Map<string, number>();
  private readonly waiting: Waiter[] = [];

  constructor(
    readonly total: number,
    readonly perHost: number,
  ) {}

  /** Resolves with a release function once a slot for `host` is free; call it exactly once. */
  acquire(host: string): Promise<Release> {
    return new Promise((grant) => {
      this.waiting.push({ host, grant });
      this.dispatch();
    });
  }

  private hasRoom(host: string): boolean {
    return this.active < this.total && (this.perHostActive.get(host) ?? 0) < this.perHost;
  }

  private dispatch(): void {
    for (let i = 0; i < this.waiting.length && this.active < this.total; ) {
      const waiter = this.waiting[i] as Waiter;
      if (!this.hasRoom(waiter.host)) {
        i++;
        continue;
      }
      this.waiting.splice(i, 1);
      this.active++;
      this.perHostActive.set(waiter.host, (this.perHostActive.get(waiter.host) ?? 0) + 1);
      let released = false;
      waiter.grant(() => {
        if (released) return;
        released = true;
        this.active--;
        const left = (this.perHostActive.get(waiter.host) ?? 1) - 1;
        if (left === 0) this.perHostActive.delete(waiter.host);
        else this.perHostActive.set(waiter.host, left);
        this.dispatch();
      });
    }
  }
}
