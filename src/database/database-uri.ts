import type { AppConfig } from '../config/app-config.js';
import { type EmbeddedDatabase, startEmbeddedDatabase } from './embedded-database.js';

export interface ResolvedDatabase {
  uri: string;
  /** Set when this process started the embedded database (and must stop it). */
  embedded: EmbeddedDatabase | null;
}

/**
 * The URI with `/hitscope` as its database when it names none. Taken apart by hand: a replica set's
 * seed list (`mongodb://a:27017,b:27017/?replicaSet=rs0`) is not a valid WHATWG URL.
 */
export function withDatabaseName(uri: string): string {
  const parts = /^(mongodb(?:\+srv)?:\/\/[^/?]*)(\/[^?]*)?(\?.*)?$/.exec(uri);
  if (!parts) return uri;
  const [, authority, path = '', query = ''] = parts;
  return `${authority}${path === '' || path === '/' ? '/hitscope' : path}${query}`;
}

/** MONGODB_URI always wins; without it the embedded FerretDB is started with data under DATA_DIR. */
export async function resolveDatabase(config: AppConfig, log: (message: string) => void): Promise<ResolvedDatabase> {
  if (config.mongodbUri) return { uri: withDatabaseName(config.mongodbUri), embedded: null };
  const started = Date.now();
  const embedded = await startEmbeddedDatabase({ dataDir: config.dataDir, binary: config.embeddedDbBinary, log });
  log(`Embedded database (FerretDB) ready in ${Date.now() - started} ms, data in ${config.dataDir}`);
  return { uri: withDatabaseName(embedded.uri), embedded };
}
