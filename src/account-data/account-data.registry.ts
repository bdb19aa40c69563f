import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { DiscoveryService } from '@nestjs/core';
import {
  ACCOUNT_DATA_PHASES,
  type AccountDataContributor,
  type AccountDataExport,
  AccountDataPartMarker,
  type AccountDataPhase,
} from './account-data.contributor.js';

interface Part {
  name: string;
  phase: AccountDataPhase;
  contributor: AccountDataContributor;
}

/**
 * Every module that stores data about a person takes part in exporting and deleting it. Parts are
 * found with Nest's DiscoveryService: a module joins by marking one provider with
 * `@AccountDataPart(phase)`. That is Nest's own way to collect "every provider that does X" (it is
 * how @nestjs/schedule finds `@Cron` handlers), and it keeps the registry's plumbing out of the
 * contributors: no injection of a global registry, no lifecycle hook to remember in each module,
 * and the phase is declared on the class, where a reader of that module sees it.
 */
@Injectable()
export class AccountDataRegistry implements OnModuleInit {
  private readonly logger = new Logger(AccountDataRegistry.name);
  private parts: Part[] = [];

  constructor(private readonly discovery: DiscoveryService) {}

  onModuleInit(): void {
    const found = this.discovery.getProviders({ metadataKey: AccountDataPartMarker.KEY }).map((wrapper): Part => {
      // A part must exist once for the whole app: a request-scoped one has no instance to call here.
      if (!wrapper.isDependencyTreeStatic() || !wrapper.instance) {
        throw new Error(`Account data part ${wrapper.name} must be a singleton provider`);
      }
      const { phase } = this.discovery.getMetadataByDecorator(AccountDataPartMarker, wrapper)!;
      return { name: String(wrapper.name), phase, contributor: wrapper.instance as AccountDataContributor };
    });
    // Stable sort: within a phase, parts keep the order in which their modules were registered.
    this.parts = found.sort((a, b) => ACCOUNT_DATA_PHASES.indexOf(a.phase) - ACCOUNT_DATA_PHASES.indexOf(b.phase));
    this.logger.debug(`Account data parts: ${this.parts.map((part) => `${part.name} (${part.phase})`).join(', ')}`);
  }

  /** Every part's export merged into one object (in phase order); two parts may not claim one key. */
  async exportFor(userId: string): Promise<AccountDataExport> {
    const exports = await Promise.all(this.parts.map((part) => part.contributor.exportFor(userId)));
    const merged: AccountDataExport = {};
    exports.forEach((exported, index) => mergeInto(merged, exported, this.parts[index].name, ''));
    return merged;
  }

  /**
   * Deletes phase by phase, one part at a time. The first failure stops the deletion and is thrown
   * as it is (a storage outage stays a 503): no later part runs, so the account record, deleted
   * last, is still there for the retry.
   */
  async deleteFor(userId: string): Promise<void> {
    for (const part of this.parts) await part.contributor.deleteFor(userId);
  }
}

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && Object.getPrototypeOf(value) === Object.prototype;

/** Merges `source` into `target` (copying nested objects, never sharing them) and returns `target`. */
function mergeInto(target: AccountDataExport, source: AccountDataExport, partName: string, path: string): AccountDataExport {
  for (const [key, value] of Object.entries(source)) {
    const here = path ? `${path}.${key}` : key;
    const existing = target[key];
    if (existing === undefined) target[key] = isPlainObject(value) ? mergeInto({}, value, partName, here) : value;
    else if (isPlainObject(existing) && isPlainObject(value)) mergeInto(existing, value, partName, here);
    else throw new Error(`Account data part ${partName} exports "${here}", which another part already exports`);
  }
  return target;
}
