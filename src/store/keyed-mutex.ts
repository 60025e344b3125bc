/**
 * Per-name serialisation inside one process: the embedded store's stand-in for Redis' atomic
 * commands. Calls with the same name run one after another; different names run concurrently.
 */
export class KeyedMutex {
  private readonly tails = new Map<string, Promise<unknown>>();

  /** Runs `task` after every earlier task of the same name has settled; returns its result. */
  run<T>(name: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(name) ?? Promise.resolve();
    // A failed predecessor must not block its successors, so chain on settlement, not success.
    const result = previous.then(task, task);
    const tail = result.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(name, tail);
    void tail.then(() => {
      // Forget the name once nothing is queued behind this task, so the map stays small.
      if (this.tails.get(name) === tail) this.tails.delete(name);
    });
    return result;
  }
}
