import { Injectable, Module, ServiceUnavailableException } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { AccountDataModule } from './account-data.module.js';
import { AccountDataRegistry } from './account-data.registry.js';
import { type AccountDataContributor, AccountDataPart, type AccountDataPhase } from './account-data.contributor.js';

/** An in-memory stand-in for the collections: which user ids each one still holds. */
const stored = new Map<string, Set<string>>();
const calls: string[] = [];
const failing = new Set<string>();
const USER = 'u1';

function store(name: string) {
  return {
    exportFor: async (userId: string): Promise<unknown[]> => (stored.get(name)?.has(userId) ? [`${name} of ${userId}`] : []),
    deleteFor: async (userId: string): Promise<void> => {
      calls.push(name);
      if (failing.has(name)) throw new ServiceUnavailableException(`${name} is unavailable right now`);
      stored.get(name)?.delete(userId);
    },
  };
}

// Modules are registered in an order unrelated to the phases, as real ones are.
@AccountDataPart('account')
@Injectable()
class UsersPart implements AccountDataContributor {
  private readonly users = store('users');
  exportFor = async () => ({});
  deleteFor = (userId: string) => this.users.deleteFor(userId);
}

@AccountDataPart('data')
@Injectable()
class OrdersPart implements AccountDataContributor {
  private readonly orders = store('orders');
  exportFor = async (userId: string) => ({ orders: await this.orders.exportFor(userId) });
  deleteFor = (userId: string) => this.orders.deleteFor(userId);
}

@AccountDataPart('files')
@Injectable()
class AvatarPart implements AccountDataContributor {
  private readonly avatars = store('avatars');
  exportFor = async (userId: string) => ({ profile: { avatars: await this.avatars.exportFor(userId) } });
  deleteFor = (userId: string) => this.avatars.deleteFor(userId);
}

@AccountDataPart('sign-in')
@Injectable()
class SessionsPart implements AccountDataContributor {
  private readonly sessions = store('sessions');
  exportFor = async (userId: string) => ({ sessions: await this.sessions.exportFor(userId) });
  deleteFor = (userId: string) => this.sessions.deleteFor(userId);
}

@AccountDataPart('audit-log')
@Injectable()
class AuditPart implements AccountDataContributor {
  private readonly audit = store('audit');
  exportFor = async () => ({});
  deleteFor = (userId: string) => this.audit.deleteFor(userId);
}

@AccountDataPart('data')
@Injectable()
class HistoryPart implements AccountDataContributor {
  private readonly history = store('history');
  exportFor = async (userId: string) => ({ tools: { history: await this.history.exportFor(userId) } });
  deleteFor = (userId: string) => this.history.deleteFor(userId);
}

@Module({ providers: [UsersPart] })
class UsersModule {}
@Module({ providers: [OrdersPart, HistoryPart] })
class OrdersModule {}
@Module({ providers: [AvatarPart] })
class ProfileModule {}
@Module({ providers: [SessionsPart, AuditPart] })
class AuthAndAuditModule {}

const PHASE_OF: Record<string, AccountDataPhase> = {
  avatars: 'files',
  sessions: 'sign-in',
  orders: 'data',
  history: 'data',
  audit: 'audit-log',
  users: 'account',
};

async function registry(...extra: Array<new () => unknown>): Promise<AccountDataRegistry> {
  const moduleRef = await Test.createTestingModule({
    imports: [UsersModule, OrdersModule, AccountDataModule, ProfileModule, AuthAndAuditModule, ...extra],
  }).compile();
  await moduleRef.init();
  return moduleRef.get(AccountDataRegistry);
}

beforeEach(() => {
  calls.length = 0;
  failing.clear();
  for (const name of Object.keys(PHASE_OF)) stored.set(name, new Set([USER, 'someone-else']));
});

describe('AccountDataRegistry', () => {
  it('deletes through every part, phase by phase: files first, the account record last', async () => {
    await (await registry()).deleteFor(USER);
    expect(calls.map((name) => PHASE_OF[name])).toEqual(['files', 'sign-in', 'data', 'data', 'audit-log', 'account']);
    expect(calls.sort()).toEqual(Object.keys(PHASE_OF).sort());
    for (const [name, ids] of stored) expect({ name, ids: [...ids] }).toEqual({ name, ids: ['someone-else'] });
  });

  it('stops when the files phase fails: nothing else runs and the account stays intact, signed in', async () => {
    failing.add('avatars');
    await expect((await registry()).deleteFor(USER)).rejects.toBeInstanceOf(ServiceUnavailableException);
    expect(calls).toEqual(['avatars']);
    for (const ids of stored.values()) expect(ids.has(USER)).toBe(true);
  });

  it('stops at the first failing part of a later phase, leaving the account record for the retry', async () => {
    failing.add('orders');
    const parts = await registry();
    await expect(parts.deleteFor(USER)).rejects.toThrow('orders is unavailable right now');
    expect(calls).toEqual(['avatars', 'sessions', 'orders']);
    expect(stored.get('users')!.has(USER)).toBe(true);
    expect(stored.get('audit')!.has(USER)).toBe(true);

    failing.clear();
    calls.length = 0;
    await parts.deleteFor(USER);
    expect(calls).toHaveLength(6);
    expect(stored.get('users')!.has(USER)).toBe(false);
  });

  it('merges every part of the export, nested objects included', async () => {
    expect(await (await registry()).exportFor(USER)).toEqual({
      profile: { avatars: [`avatars of ${USER}`] },
      sessions: [`sessions of ${USER}`],
      orders: [`orders of ${USER}`],
      tools: { history: [`history of ${USER}`] },
    });
  });

  it('lets a module added later join by marking a provider, with no other change', async () => {
    @AccountDataPart('data')
    @Injectable()
    class NewsletterPart implements AccountDataContributor {
      exportFor = async () => ({ tools: { newsletter: ['subscribed'] } });
      deleteFor = async () => {
        calls.push('newsletter');
      };
    }
    @Module({ providers: [NewsletterPart] })
    class NewsletterModule {}

    const parts = await registry(NewsletterModule);
    expect((await parts.exportFor(USER)).tools).toEqual({ history: [`history of ${USER}`], newsletter: ['subscribed'] });
    await parts.deleteFor(USER);
    expect(calls.indexOf('newsletter')).toBeGreaterThan(calls.indexOf('sessions'));
    expect(calls.indexOf('newsletter')).toBeLessThan(calls.indexOf('users'));
  });

  it('refuses two parts exporting the same key', async () => {
    @AccountDataPart('data')
    @Injectable()
    class ClashingPart implements AccountDataContributor {
      exportFor = async () => ({ sessions: [] });
      deleteFor = async () => undefined;
    }
    @Module({ providers: [ClashingPart] })
    class ClashingModule {}

    await expect((await registry(ClashingModule)).exportFor(USER)).rejects.toThrow(
      'exports "sessions", which another part already exports',
    );
  });
});
