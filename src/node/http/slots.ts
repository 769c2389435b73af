// Concurrency limits for HTTP requests: at most `total` at once, and at most `perHost` to one host
// (issue #5 "Fetching": per host 4, overall 16 by default). Each host has its own queue, and hosts
// with room take turns, one grant each, so one busy host never holds back the others. A grant skips
// only hosts that are full (at most total / perHost of them while total has room): one host's 50,000
// waiters are not scanned on every release.

export type Release = () => void;

export class HostSlots {
  private active = 0;
  private readonly perHostActive = new Map<string, number>();
  /** Waiting grants per host, in arrival order from `next`; hosts in the order of their next turn. */
  private readonly waiting = new Map<string, { grants: ((release: Release) => void)[]; next: number }>();

  constructor(
    readonly total: number,
    readonly perHost: number,
  ) {}

  /** Resolves with a release function once a slot for `host` is free; call it exactly once. */
  acquire(host: string): Promise<Release> {
    return new Promise((grant) => {
      const queue = this.waiting.get(host);
      if (queue === undefined) this.waiting.set(host, { grants: [grant], next: 0 });
      else queue.grants.push(grant);
      this.dispatch();
    });
  }

  private dispatch(): void {
    // A host granted one goes to the back, and is met again in this loop (a Map's iteration visits
    // entries added while it runs) until it is full or has nobody waiting.
    for (const [host, queue] of this.waiting) {
      if (this.active >= this.total) return;
      if ((this.perHostActive.get(host) ?? 0) >= this.perHost) continue;
      // An index, not shift(): shifting a long array copies it.
      const grant = queue.grants[queue.next++] as (release: Release) => void;
      this.waiting.delete(host);
      if (queue.next < queue.grants.length) this.waiting.set(host, queue);
      this.active++;
      this.perHostActive.set(host, (this.perHostActive.get(host) ?? 0) + 1);
      let released = false;
      grant(() => {
        if (released) return;
        released = true;
        this.active--;
        const left = (this.perHostActive.get(host) ?? 1) - 1;
        if (left === 0) this.perHostActive.delete(host);
        else this.perHostActive.set(host, left);
        this.dispatch();
      });
    }
  }
}
