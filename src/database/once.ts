import type { Connection } from 'mongoose';
import { isDuplicateKey } from './upsert.js';

/** Where the one-time upgrades of stored data record that they ran (`_id`: the upgrade's name). */
export const MIGRATIONS_COLLECTION = 'database_migrations';

/**
 * Runs an upgrade of stored data once per database, then never again: its marker is read by `_id`
 * (one lookup at each start), where checking whether there is anything to upgrade would read the
 * collection (FerretDB counts and filters by reading every document; at 10 000 users the checks made
 * start-up time out). `work` must be idempotent: two instances starting at once may both run it
 * before either records it. Answers whether it ran.
 */
export async function once(connection: Connection, name: string, work: () => Promise<void>): Promise<boolean> {
  const markers = connection.collection<{ _id: string; doneAt: Date }>(MIGRATIONS_COLLECTION);
  if (await markers.findOne({ _id: name }, { projection: { _id: 1 } })) return false;
  await work();
  try {
    await markers.insertOne({ _id: name, doneAt: new Date() });
  } catch (error) {
    if (!isDuplicateKey(error)) throw error; // another instance recorded it first
  }
  return true;
}
