import { commandShape } from './database.module.js';

describe('commandShape (the slow-command log)', () => {
  it('names the command, the collection and the keys it filters and sorts on, never a value', () => {
    expect(commandShape({ find: 'orders', filter: { userId: 'u1' }, sort: { createdAt: -1 }, limit: 200 })).toBe(
      'find orders {userId} sort {createdAt}',
    );
    expect(commandShape({ find: 'users', filter: { $or: [{ name: /ada/i }, { email: /ada/i }], role: 'admin' } })).toBe(
      'find users {$or: {name}, {email}, role}',
    );
    expect(commandShape({ update: 'users', updates: [{ q: { _id: 'x', emailVerifiedAt: null }, u: { $set: { a: 1 } } }] })).toBe(
      'update users {_id, emailVerifiedAt}',
    );
    expect(commandShape({ findAndModify: 'rate_limits', query: { _id: 'k' }, update: { $inc: { n: 1 } } })).toBe(
      'findAndModify rate_limits {_id}',
    );
    expect(commandShape({ aggregate: 'orders', pipeline: [{ $match: { status: 'paid' } }, { $group: {} }] })).toBe(
      'aggregate orders [$match, $group]',
    );
    expect(commandShape({ getMore: 42, collection: 'orders' })).toBe('getMore orders');
    expect(JSON.stringify(commandShape({ find: 'users', filter: { email: 'ada@example.test' } }))).not.toContain('ada@');
  });
});
