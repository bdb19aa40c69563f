import { ConsoleLogger, type LogLevel } from '@nestjs/common';

const LEVELS_BY_SEVERITY: LogLevel[] = ['error', 'warn', 'log', 'debug', 'verbose'];

/**
 * Nest's own start-up chatter: a line per module ("… dependencies initialized") and per route
 * ("Mapped {…} route"), about ninety in all, plus "Starting"/"successfully started". Handy when the
 * wiring is in doubt (LOG_LEVEL=debug shows them), noise in a production log, where the lines that
 * matter (database ready, warnings, the listening address) would drown.
 */
export const DEMOTED_CONTEXTS: ReadonlySet<string> = new Set([
  'InstanceLoader',
  'RoutesResolver',
  'RouterExplorer',
  'NestFactory',
  'NestApplication',
]);

/** Nest's console logger, with the start-up chatter of {@link DEMOTED_CONTEXTS} moved from `log` to `debug`. */
export class AppLogger extends ConsoleLogger {
  /** Nest's Logger passes its context as the last argument. */
  override log(message: unknown, ...optionalParams: unknown[]): void {
    const last: unknown = optionalParams.at(-1);
    const context = typeof last === 'string' ? last : this.context;
    if (context !== undefined && DEMOTED_CONTEXTS.has(context)) this.debug(message, ...optionalParams);
    else super.log(message, ...optionalParams);
  }
}

/** LOG_LEVEL names the least severe level printed: `log` prints error, warn and log. */
export function createAppLogger(level: LogLevel): AppLogger {
  return new AppLogger({ logLevels: LEVELS_BY_SEVERITY.slice(0, LEVELS_BY_SEVERITY.indexOf(level) + 1) });
}
