/**
 * Admission to the worker threads, fair between API keys: each key has its own first-in-first-out
 * line and the free threads serve the keys in turn, so a key that queues fifty slow uploads delays
 * another key's one request by at most one task. With more than one thread a key may hold all but
 * one of them, so one key's pathological files can never occupy every thread at once. A bounded task
 * (one whose work the service's own limits bound, such as an analysis of a stored recording) may take
 * that last thread when no key under its share waits: otherwise one key's analyses ran on one thread
 * of two while the other idled (issue 23), and a key arriving then waits for one bounded task at most.
 */

interface Waiting<T> {
  start: () => Promise<T>;
  bounded: boolean;
  resolve: (value: T) => void;
  reject: (reason: unknown) => void;
}

/** Thrown by `push` when the queue is full; the caller answers 503. */
export class QueueFullError extends Error {
  constructor(readonly limit: number) {
    super(`more than ${limit} tasks are waiting for a worker`);
    this.name = 'QueueFullError';
  }
}

export class FairQueue<T> {
  private readonly lines = new Map<string, Waiting<T>[]>();
  private readonly running = new Map<string, number>();
  /** When each owner was last served (a dispatch count): the one served longest ago goes next. */
  private readonly lastServed = new Map<string, number>();
  private dispatches = 0;
  private waitingCount = 0;
  private runningCount = 0;
  private readonly perOwner: number;
  private idleWaiters: (() => void)[] = [];

  /**
   * `slots` tasks run at once (the thread count); at most `limit` wait, beyond that `push` refuses.
   */
  constructor(
    private readonly slots: number,
    private readonly limit: number,
  ) {
    this.perOwner = slots > 1 ? slots - 1 : 1;
  }

  /** Tasks waiting for a slot. */
  get waiting(): number {
    return this.waitingCount;
  }

  /** Tasks holding a slot. */
  get active(): number {
    return this.runningCount;
  }

  /** Resolves once nothing waits and nothing runs. */
  idle(): Promise<void> {
    if (this.waitingCount === 0 && this.runningCount === 0) return Promise.resolve();
    return new Promise((resolve) => this.idleWaiters.push(resolve));
  }

  /**
   * Runs `start` when a slot is free and it is `owner`'s turn; settles with its result. A `bounded`
   * task may use the slot the owner's share leaves to others while nobody under their share waits.
   */
  push(owner: string, start: () => Promise<T>, bounded = false): Promise<T> {
    if (this.waitingCount >= this.limit) return Promise.reject(new QueueFullError(this.limit));
    return new Promise<T>((resolve, reject) => {
      let line = this.lines.get(owner);
      if (!line) {
        line = [];
        this.lines.set(owner, line);
      }
      line.push({ start, bounded, resolve, reject });
      this.waitingCount++;
      this.dispatch();
    });
  }

  /** Whether `candidate` was served longer ago than `other` (or there is no other). */
  private servedBefore(candidate: string, other: string | null): boolean {
    return other === null || (this.lastServed.get(candidate) ?? -1) < (this.lastServed.get(other) ?? -1);
  }

  private dispatch(): void {
    while (this.runningCount < this.slots) {
      let owner: string | null = null;
      let borrower: string | null = null;
      for (const [candidate, waiting] of this.lines) {
        if ((this.running.get(candidate) ?? 0) < this.perOwner) {
          if (this.servedBefore(candidate, owner)) owner = candidate;
        } else if (waiting[0].bounded && this.servedBefore(candidate, borrower)) borrower = candidate;
      }
      owner ??= borrower;
      if (owner === null) return;
      const served: string = owner;
      const line = this.lines.get(served) as Waiting<T>[];
      const next = line.shift() as Waiting<T>;
      if (line.length === 0) this.lines.delete(served);
      this.lastServed.set(served, this.dispatches++);
      this.waitingCount--;
      this.runningCount++;
      this.running.set(served, (this.running.get(served) ?? 0) + 1);
      const settle = (): void => {
        this.runningCount--;
        const left = (this.running.get(served) ?? 1) - 1;
        if (left > 0) this.running.set(served, left);
        else {
          this.running.delete(served);
          // An owner with nothing queued or running is forgotten, so the maps hold active keys only.
          if (!this.lines.has(served)) this.lastServed.delete(served);
        }
        this.dispatch();
        if (this.waitingCount === 0 && this.runningCount === 0) for (const resolve of this.idleWaiters.splice(0)) resolve();
      };
      let started: Promise<T>;
      try {
        started = next.start();
      } catch (err) {
        started = Promise.reject(err);
      }
      started.then(
        (value) => {
          settle();
          next.resolve(value);
        },
        (err: unknown) => {
          settle();
          next.reject(err);
        },
      );
    }
  }
}
