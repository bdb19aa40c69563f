/** MongoDB's duplicate-key error code (FerretDB answers the same). */
export const DUPLICATE_KEY = 11000;

export const isDuplicateKey = (error: unknown): boolean => (error as { code?: number } | null)?.code === DUPLICATE_KEY;

/**
 * Runs an upsert, and runs it once more when it lost the race to insert the document. Two upserts
 * of a document that does not exist yet can both decide to insert it; the unique index (or `_id`)
 * lets one win and fails the other with a duplicate key, and the retry then finds the winner's
 * document and updates it. A second duplicate key is not a race any more and is thrown.
 *
 * MongoDB retries most of these itself (an upsert whose filter is an equality on the unique key);
 * FerretDB does not, and over one connection it never meets the race, but several app instances
 * or a CLI on the same database can.
 */
export async function upsertWithRetry<T>(upsert: () => Promise<T>): Promise<T> {
  try {
    return await upsert();
  } catch (error) {
    if (!isDuplicateKey(error)) throw error;
    return upsert();
  }
}
