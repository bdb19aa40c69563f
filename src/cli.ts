import 'reflect-metadata';
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConfigError, loadConfig } from './config/app-config.js';
import { ConfigModule } from './config/config.module.js';
import { resolveDatabase } from './database/database-uri.js';
import { DatabaseModule } from './database/database.module.js';
import { UsersModule } from './users/users.module.js';
import { SESSION_USER_CACHE_MS, UsersService } from './users/users.service.js';

const USAGE = 'Usage: npm run promote -- <email>   (gives an existing account the admin role)';

/** Command-line administration. Today: `promote <email>`, for the very first admin. */
async function main(argv: string[]): Promise<number> {
  const [command, email] = argv;
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

main(process.argv.slice(2)).then(
  (code) => process.exit(code),
  (error: unknown) => {
    console.error(error instanceof ConfigError ? error.message : `promote failed: ${(error as Error).message}`);
    process.exit(1);
  },
);
