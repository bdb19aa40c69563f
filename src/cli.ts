import 'reflect-metadata';
import { resolve } from 'node:path';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { resolveDatabase } from './database/database-uri.js';
import { DatabaseModule } from './database/database.module.js';
import { MailModule } from './mail/mail.module.js';
import { RateLimitModule } from './rate-limit/rate-limit.module.js';
import { CompanionBuildsPublisher } from './releases/companion-builds.js';
import { ReleasesModule } from './releases/releases.module.js';
import { StorageModule } from './storage/storage.module.js';
import { UsersModule } from './users/users.module.js';
import { SESSION_USER_CACHE_MS, UsersService } from './users/users.service.js';

const USAGE = [
  'Usage: npm run promote -- <email>   (gives an existing account the admin role)',
  '       npm run publish:companions [-- --channel stable|beta] [--notes <text>] [--dir <folder>]',
  '                                    (publishes the companion packages of `npm run build` as releases)',
].join('\n');

/** Command-line administration: `promote <email>` for the very first admin, `publish-companions`. */
async function main(argv: string[]): Promise<number> {
  const [command, email] = argv;
  if (command === 'publish-companions') return publishCompanions(argv.slice(1));
  if (command !== 'promote' || !email) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const database = await resolveDatabase(config, (message) => console.log(message));
  @Module({ imports: [ConfigModule.forRoot(config), DatabaseModule.forRoot(database.uri), UsersModule] })
  class CliModule {}
  const context = await NestFactory.createApplicationContext(CliModule, { logger: ['error', 'warn'] });
  try {
    const user = await context.get(UsersService).promote(email);
    if (!user) {
      console.error(`No account with the e-mail ${email}. Register it first, then promote it.`);
      return 1;
    }
    console.log(
      `${user.email} is now an admin. A running Hitscope sees it within ${SESSION_USER_CACHE_MS / 1000} seconds; no new sign-in is needed.`,
    );
    return 0;
  } finally {
    await context.close();
    await database.embedded?.stop();
  }
}

/** `--name value` pairs; null when an argument is not one of `names`. */
function options(args: string[], names: readonly string[]): Record<string, string> | null {
  const out: Record<string, string> = {};
  for (let index = 0; index < args.length; index += 2) {
    const name = args[index]?.replace(/^--/, '');
    const value = args[index + 1];
    if (!name || !names.includes(name) || value === undefined) return null;
    out[name] = value;
  }
  return out;
}

/**
 * Publishes every companion package in dist/companions (packages.json) through the releases service:
 * stored, hashed and signed as an upload is. Versions that exist are skipped, so it can run after
 * every build; a running site sees the new releases at once (its listings are read per request,
 * cached for 60 seconds).
 */
async function publishCompanions(args: string[]): Promise<number> {
  const given = options(args, ['channel', 'notes', 'dir']);
  if (!given || (given.channel && given.channel !== 'stable' && given.channel !== 'beta')) {
    console.error(USAGE);
    return 2;
  }
  const config = loadConfig();
  const dir = given.dir ? resolve(given.dir) : config.companionBuilds.dir;
  const database = await resolveDatabase(config, (message) => console.log(message));
  @Module({
    imports: [
      ConfigModule.forRoot({ ...config, companionBuilds: { dir, publishOnStart: false } }),
      DatabaseModule.forRoot(database.uri),
      // What the releases module's own imports (auth, licences) stand on in the app.
      RateLimitModule,
      MailModule,
      StorageModule,
      ReleasesModule,
    ],
  })
  class PublishModule {}
  const context = await NestFactory.createApplicationContext(PublishModule, { logger: ['error', 'warn'] });
  try {
    const outcomes = await context
      .get(CompanionBuildsPublisher)
      .publish(dir, { channel: given.channel as 'stable' | 'beta' | undefined, notes: given.notes });
    if (!outcomes.length) {
      console.error(`No companion packages in ${dir}: run \`npm run build\` first.`);
      return 1;
    }
    for (const { package: item, outcome } of outcomes) {
      const what = `${item.product} ${item.version} for ${item.platform}/${item.arch} (${item.file}, sha256 ${item.sha256.slice(0, 12)}…)`;
      console.log(outcome === 'published' ? `Published ${what}` : `Already published, skipped: ${what}`);
    }
    return 0;
  } finally {
    await context.close();
    await database.embedded?.stop();
  }
}

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `${process.argv[2] ?? 'command'} failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
