// Concurrency limits for HTTP requests: at most `total` at once and `perHost` to one host. Hosts with
// room take turns, one grant each, so a busy host never holds back the others, and a grant skips only
// full hosts (one host's 50,000 waiters are not scanned per release). Waiters are plain items handed
// to `start` with their release: no promise or closure per waiter.

export type Release = () => void;

export class HostQueues<T> {
  private active = 0;
  private readonly perHostActive = new Map<string, number>();
  /** Waiting items per host, in arrival order from `next`; hosts in the order of their next turn. */
  private readonly waiting = new Map<string, { items: T[]; next: number }>();

  constructor(
    readonly total: number,
    readonly perHost: number,
    private readonly start: (item: T, release: Release) => void,
  ) {}

  /** Queues `item`; `start` gets it with a release function once a slot for `host` is free. */
  add(host: string, item: T): void {
    const queue = this.waiting.get(host);
    if (queue === undefined) this.waiting.set(host, { items: [item], next: 0 });
    else queue.items.push(item);
    this.dispatch();
  }

  private dispatch(): void {
    // A host granted one goes to the back and is met again in this loop (a Map's iteration visits
    // entries added while it runs), until it is full or has nobody waiting.
    for (const [host, queue] of this.waiting) {
      if (this.active >= this.total) return;
      if ((this.perHostActive.get(host) ?? 0) >= this.perHost) continue;
      // An index, not shift(): shifting a long array copies it.
      const item = queue.items[queue.next++] as T;
      this.waiting.delete(host);
      if (queue.next < queue.items.length) this.waiting.set(host, queue);
      this.active++;
      this.perHostActive.set(host, (this.perHostActive.get(host) ?? 0) + 1);
      let released = false;
      this.start(item, () => {
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

export class HostSlots extends HostQueues<(release: Release) => void> {
  constructor(total: number, perHost: number) {
    super(total, perHost, (grant, release) => grant(release));
  }

  /** Resolves with a release function once a slot for `host` is free; call it exactly once. */
  acquire(host: string): Promise<Release> {
    return new Promise((grant) => this.add(host, grant));
  }
}
