import { MongoBulkWriteError, MongoNetworkError, MongoServerError } from 'mongodb';
import { isDatabaseUnavailable, toErrorResponse } from './error-response.js';

/** An error with the name the driver gives a class it does not export. */
function named(name: string, message = 'x', cause?: unknown): Error {
  const error = new Error(message, { cause });
  error.name = name;
  return error;
}

describe('isDatabaseUnavailable', () => {
  it.each([
    ['a refused or reset connection', new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:27017')],
    ['no server to select', named('MongoServerSelectionError', 'Server selection timed out after 2500 ms')],
    [
      'the pool cleared after a network error (a 30 s stall produced 500s with it)',
      named('PoolClearedOnNetworkError', 'Connection to 127.0.0.1:4 interrupted due to server monitor timeout'),
    ],
    ['the pool cleared', named('PoolClearedError')],
    [
      'a full wait queue (its name in driver 7)',
      named('MongoWaitQueueTimeoutError', 'Timed out while checking out a connection from connection pool'),
    ],
    ['a socket timeout', named('MongoNetworkTimeoutError', 'connection 3 to 127.0.0.1:4 timed out')],
    ["mongoose's command buffer", new Error('Operation `users.findOne()` buffering timed out after 2500ms')],
    ['a driver error wrapped by the application', new Error('lookup failed', { cause: new MongoNetworkError('socket hang up') })],
    [
      'an insertMany that could not be sent (the network error is its errorResponse)',
      new MongoBulkWriteError(
        new MongoNetworkError('connect ECONNREFUSED 127.0.0.1:27017') as never,
        {
          insertedCount: 0,
          insertedIds: {},
        } as never,
      ),
    ],
  ])('recognises %s', (_what, error) => {
    expect(isDatabaseUnavailable(error)).toBe(true);
    const response = toErrorResponse(error);
    expect(response.status).toBe(503);
    expect(response.headers).toEqual({ 'Retry-After': '5' });
    expect(response.unexpected).toBe(false);
  });

  it('leaves real failures alone: a server error, a programming error', () => {
    expect(isDatabaseUnavailable(new MongoServerError({ message: 'E11000 duplicate key error', code: 11000 }))).toBe(false);
    expect(isDatabaseUnavailable(new TypeError('cannot read properties of undefined'))).toBe(false);
    expect(toErrorResponse(new TypeError('x')).status).toBe(500);
  });
});
