import { Injectable, Logger } from '@nestjs/common';
import { InjectModel } from '@nestjs/mongoose';
import type { Model } from 'mongoose';
import type { SessionUser } from '../../lib/api/auth.js';
import type { RouteRule, RouteRuleRedirect } from '../../lib/api/route-rules.js';
import { resolveRouteRule } from '../../lib/routes/route-rules.js';
import { AuditService } from '../audit/audit.service.js';
import { RouteRuleSet } from './schemas/route-rules.schema.js';
import { SettingsErrorCode, SettingsException } from './settings.exception.js';
import { publicContentChanged } from '../common/public-content.js';

const RULE_SET_ID = 'site';
/**
 * Every navigation asks for the rules, so each instance keeps them for a few seconds. The database
 * stays the only source of truth; another instance sees an edit within this window.
 */
const CACHE_MS = 5000;

@Injectable()
export class RouteRulesService {
  private readonly logger = new Logger(RouteRulesService.name);
  private cache: { rules: readonly RouteRule[]; at: number } | null = null;

  constructor(
    @InjectModel(RouteRuleSet.name) private readonly ruleSets: Model<RouteRuleSet>,
    private readonly audit: AuditService,
  ) {}

  async list(): Promise<readonly RouteRule[]> {
    if (this.cache && Date.now() - this.cache.at < CACHE_MS) return this.cache.rules;
    const set = await this.ruleSets.findById(RULE_SET_ID).lean().exec();
    const rules = (set?.rules ?? []).map(({ source, target, status }) => ({ source, target, status }));
    this.cache = { rules, at: Date.now() };
    return rules;
  }

  async resolve(pathname: string, search = ''): Promise<RouteRuleRedirect | null> {
    return resolveRouteRule(await this.list(), pathname, search);
  }

  /** Replaces the whole list, audited like every settings change (each rule as `source → target (status)`). */
  async replace(actor: SessionUser, rules: RouteRule[]): Promise<readonly RouteRule[]> {
    this.cache = null;
    const before = await this.list();
    const seen = new Set<string>();
    for (const rule of rules) {
      if (seen.has(rule.source)) {
        throw new SettingsException(SettingsErrorCode.DuplicateRuleSource, `Two rules have the source ${rule.source}`);
      }
      seen.add(rule.source);
    }
    const clean = rules.map(({ source, target, status }) => ({ source, target, status }));
    await this.ruleSets.updateOne({ _id: RULE_SET_ID }, { $set: { rules: clean, updatedAt: new Date() } }, { upsert: true }).exec();
    this.cache = null;
    publicContentChanged();
    // A summary: the count and at most the first 50 rules, so 500 rules never make a 50 kB entry.
    const summary = (list: readonly RouteRule[]) => ({
      count: list.length,
      rules: list.slice(0, 50).map((rule) => `${rule.source} → ${rule.target} (${rule.status})`),
    });
    const record = {
      actor: { id: actor.id, email: actor.email },
      action: 'settings.route_rules.update',
      target: { type: 'site_settings' as const, id: 'route-rules', label: 'Redirect rules' },
      before: summary(before),
      after: summary(clean),
    };
    try {
      await this.audit.record(record);
    } catch (error) {
      this.logger.error(`Audit entry not written: ${record.action} by ${actor.id} ${JSON.stringify(record.after)}`);
      throw error;
    }
    return clean;
  }
}
