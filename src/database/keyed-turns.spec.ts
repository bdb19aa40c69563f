import { KeyedTurns } from './keyed-turns.js';

describe('KeyedTurns', () => {
  it('runs the tasks of one key one at a time, in order, and other keys meanwhile', async () => {
    const turns = new KeyedTurns();
    const log: string[] = [];
    const task = (name: string, ms: number) => async () => {
      log.push(`${name} start`);
      await new Promise((resolve) => setTimeout(resolve, ms));
      log.push(`${name} end`);
      return name;
    };
    const results = await Promise.all([turns.run('a', task('a1', 20)), turns.run('a', task('a2', 1)), turns.run('b', task('b1', 5))]);
    expect(results).toEqual(['a1', 'a2', 'b1']);
    expect(log.indexOf('a2 start')).toBeGreaterThan(log.indexOf('a1 end'));
    expect(log.indexOf('b1 start')).toBeLessThan(log.indexOf('a1 end'));
  });

  it('goes on after a task that failed, and passes its error to its caller only', async () => {
    const turns = new KeyedTurns();
    const failed = turns.run('a', () => Promise.reject(new Error('boom')));
    const next = turns.run('a', () => Promise.resolve('after'));
    await expect(failed).rejects.toThrow('boom');
    await expect(next).resolves.toBe('after');
  });
});
