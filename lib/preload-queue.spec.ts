import { createPreloadQueue } from './preload-queue.js';

const deferred = () => {
  let resolve!: () => void;
  const promise = new Promise<void>((r) => (resolve = r));
  return { promise, resolve };
};

describe('preload queue', () => {
  it('never runs more than the limit at once and runs everything eventually', async () => {
    const queue = createPreloadQueue(5);
    const tasks = Array.from({ length: 12 }, deferred);
    const started: number[] = [];
    tasks.forEach((task, index) =>
      queue.enqueue(`/page/${index}`, () => {
        started.push(index);
        return task.promise;
      }),
    );
    expect(queue.inFlight).toBe(5);
    expect(started).toEqual([0, 1, 2, 3, 4]);
    for (const task of tasks) {
      task.resolve();
      await new Promise((r) => setTimeout(r, 0));
    }
    expect(started).toHaveLength(12);
    expect(queue.peakInFlight).toBe(5);
    expect(queue.inFlight).toBe(0);
  });

  it('preloads a key once, but again after a failure', async () => {
    const queue = createPreloadQueue(5);
    expect(queue.enqueue('/a', () => Promise.resolve())).toBe(true);
    expect(queue.enqueue('/a', () => Promise.resolve())).toBe(false);
    queue.enqueue('/b', () => Promise.reject(new Error('offline')));
    await new Promise((r) => setTimeout(r, 0));
    expect(queue.enqueue('/b', () => Promise.resolve())).toBe(true);
  });
});
