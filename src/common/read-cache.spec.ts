import { ReadCache } from './read-cache.js';

function deferred<T>() {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((done) => (resolve = done));
  return { promise, resolve };
}

describe('ReadCache', () => {
  let clock = 0;
  const now = () => clock;
  beforeEach(() => (clock = 1_000));

  it('answers a stored value until its time is up, then loads again', async () => {
    const cache = new ReadCache<string>(100, 10, now);
    let loads = 0;
    const load = async () => `v${(loads += 1)}`;
    expect(await cache.get('a', load)).toBe('v1');
    clock += 99;
    expect(await cache.get('a', load)).toBe('v1');
    clock += 1;
    expect(await cache.get('a', load)).toBe('v2');
  });

  it('peeks at a remembered value without loading, until its time is up; the oldest go first beyond the bound', () => {
    const cache = new ReadCache<true>(100, 2, now);
    expect(cache.peek('a')).toBeUndefined();
    cache.remember('a', true);
    cache.remember('b', true);
    clock += 99;
    expect([cache.peek('a'), cache.peek('b')]).toEqual([true, true]);
    cache.remember('c', true);
    expect([cache.peek('a'), cache.peek('b'), cache.peek('c')]).toEqual([undefined, true, true]);
    clock += 1;
    expect(cache.peek('b')).toBeUndefined();
    expect(cache.peek('c')).toBe(true);
  });

  it('shares one load among concurrent misses of a key', async () => {
    const cache = new ReadCache<string>(100, 10, now);
    const gate = deferred<string>();
    let loads = 0;
    const load = () => ((loads += 1), gate.promise);
    const answers = Promise.all([cache.get('a', load), cache.get('a', load), cache.get('a', load)]);
    gate.resolve('value');
    expect(await answers).toEqual(['value', 'value', 'value']);
    expect(loads).toBe(1);
  });

  it('does not store what a load read before the key was forgotten', async () => {
    const cache = new ReadCache<string>(100, 10, now);
    const gate = deferred<string>();
    const stale = cache.get('a', () => gate.promise);
    cache.forget('a'); // a writer changed it while the read was under way
    gate.resolve('before the write');
    expect(await stale).toBe('before the write');
    expect(await cache.get('a', async () => 'after the write')).toBe('after the write');
  });

  it('does not cache absence, nor a failed load', async () => {
    const cache = new ReadCache<string>(100, 10, now);
    expect(await cache.get('a', async () => null)).toBeNull();
    await expect(cache.get('a', async () => Promise.reject(new Error('database down')))).rejects.toThrow('database down');
    expect(await cache.get('a', async () => 'found')).toBe('found');
  });

  it('keeps at most maxEntries, dropping the oldest first', async () => {
    const cache = new ReadCache<string>(100, 2, now);
    for (const key of ['a', 'b', 'c']) await cache.get(key, async () => key);
    expect(cache.size).toBe(2);
    expect(await cache.get('a', async () => 'reloaded')).toBe('reloaded');
    expect(await cache.get('c', async () => 'reloaded')).toBe('c');
  });

  it('forgetWhere forgets the matching values and the loads under way, and keeps the rest', async () => {
    const cache = new ReadCache<{ owner: string; n: number }>(100, 10, now);
    let loads = 0;
    const load = (owner: string) => async () => ({ owner, n: (loads += 1) });
    await cache.get('a1', load('a'));
    await cache.get('a2', load('a'));
    await cache.get('b1', load('b'));
    const gate = deferred<{ owner: string; n: number }>();
    const underWay = cache.get('a3', () => gate.promise);
    cache.forgetWhere((value) => value.owner === 'a');
    gate.resolve({ owner: 'a', n: 0 });
    await underWay;
    expect(cache.size).toBe(1);
    expect(await cache.get('b1', load('b'))).toEqual({ owner: 'b', n: 3 });
    expect(await cache.get('a1', load('a'))).toEqual({ owner: 'a', n: 4 });
    expect(await cache.get('a3', load('a'))).toEqual({ owner: 'a', n: 5 });
  });

  it('clear forgets everything', async () => {
    const cache = new ReadCache<string>(100, 10, now);
    await cache.get('a', async () => 'old');
    cache.clear();
    expect(await cache.get('a', async () => 'new')).toBe('new');
  });
});
