/**
 * Runs the tasks of one key one after the other in this process, while tasks of other keys run
 * meanwhile. FerretDB applies an update as a read and a separate write, so two updates of one
 * document in flight at once over several connections can lose one (docs/database.md, "Several
 * connections"); the updates this process makes to a document, one at a time, lose none.
 */
export class KeyedTurns {
  private readonly tails = new Map<string, Promise<void>>();

  async run<T>(key: string, task: () => Promise<T>): Promise<T> {
    const previous = this.tails.get(key) ?? Promise.resolve();
    const mine = previous.then(task, task);
    const tail = mine.then(
      () => undefined,
      () => undefined,
    );
    this.tails.set(key, tail);
    try {
      return await mine;
    } finally {
      if (this.tails.get(key) === tail) this.tails.delete(key);
    }
  }
}
