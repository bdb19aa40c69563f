import { Injectable, Logger } from '@nestjs/common';
import type { Role, SessionUser } from '../../lib/api/auth.js';
import { AuditService } from '../audit/audit.service.js';
import { SessionsService } from '../auth/sessions.service.js';
import type { UserDocument, UserStatus } from '../users/schemas/user.schema.js';
import { UsersService } from '../users/users.service.js';
import { AdminUsersErrorCode, AdminUsersException } from './admin-users.exception.js';
import {
  ADMIN_USER_AUDIT_ACTIONS,
  type AdminUserDetail,
  type AdminUserList,
  defaultSortOrder,
  type RevokeSessionsResponse,
  type UserRoleChangeResponse,
  type UserStatusChangeResponse,
} from '../../lib/api/admin-users.js';
import { toAdminUserResponse } from './dto/admin-user.response.js';
import type { ListUsersQueryDto } from './dto/list-users-query.dto.js';

/** The audit actions this module writes (`audit_log.action`), shared with the client. */
export const ADMIN_USER_ACTIONS = ADMIN_USER_AUDIT_ACTIONS;

const SESSION_REVOKED_BY_ADMIN = 'revoked-by-admin';
const SESSION_REVOKED_ACCOUNT_DISABLED = 'account-disabled';

/**
 * Account administration: list, inspect, change role, disable/enable, revoke sessions. Every change
 * writes one audit entry.
 *
 * The invariant: at least one admin who can sign in (role admin, status active). FerretDB has no
 * transactions, so each change that can remove an active admin runs in three steps:
 *   1. pre-check: refuse (409, nothing written) unless another active admin exists. This is the
 *      answer in every non-concurrent case.
 *   2. compare-and-set write on the one user document (filter on the value we read), so two
 *      admins changing the same account cannot both apply.
 *   3. post-check: count active admins again. If concurrent changes to *different* admins both
 *      passed step 1 and now none is left, undo our own write and refuse. Each racing request
 *      re-checks after its own write, so at least the last one to check sees zero and undoes;
 *      undo only ever restores an admin, so the invariant holds however the steps interleave.
 * A crash between 2 and 3 during such a race could leave no admin; ADMIN_EMAILS (on sign-in) and the
 * `promote` command are the recovery path, as they are for a fresh install.
 */
@Injectable()
export class AdminUsersService {
  private readonly logger = new Logger(AdminUsersService.name);

  constructor(
    private readonly users: UsersService,
    private readonly sessions: SessionsService,
    private readonly audit: AuditService,
  ) {}

  async list(query: ListUsersQueryDto): Promise<AdminUserList> {
    const { page, pageSize } = query;
    const { users, total } = await this.users.search({
      q: query.q,
      role: query.role,
      status: query.status,
      sort: query.sort,
      order: query.order ?? defaultSortOrder(query.sort),
      skip: (page - 1) * pageSize,
      limit: pageSize,
    });
    return { items: users.map(toAdminUserResponse), total, page, pageSize };
  }

  async get(id: string): Promise<AdminUserDetail> {
    const user = await this.require(id);
    return {
      ...toAdminUserResponse(user),
      sessions: { active: await this.sessions.countLiveForUser(id) },
      orders: [],
      licenses: [],
      subscription: null,
    };
  }

  /** Takes effect on the target's next request: sessions read the role from the database. */
  async changeRole(actor: SessionUser, id: string, role: Role): Promise<UserRoleChangeResponse> {
    const user = await this.require(id);
    if (user.role === role) return { user: toAdminUserResponse(user), changed: false };

    const removesActiveAdmin = user.role === 'admin' && user.status === 'active';
    if (removesActiveAdmin) await this.assertAnotherActiveAdmin();
    const updated = await this.users.setRoleIf(id, user.role, role);
    if (!updated) throw AdminUsersException.concurrentChange();
    if (removesActiveAdmin) await this.undoIfNoActiveAdminLeft(() => this.users.setRoleIf(id, role, user.role));

    await this.record(actor, ADMIN_USER_ACTIONS.changeRole, updated, { role: user.role }, { role });
    return { user: toAdminUserResponse(updated), changed: true };
  }

  async changeStatus(actor: SessionUser, id: string, status: UserStatus): Promise<UserStatusChangeResponse> {
    if (status === 'disabled' && id === actor.id) {
      throw new AdminUsersException(AdminUsersErrorCode.SelfDisable, 'You cannot disable your own account. Ask another admin to do it.');
    }
    const user = await this.require(id);
    if (user.status === status) {
      // Re-sending "disabled" finishes a disable whose session revocation failed half-way.
      const revoked = status === 'disabled' ? await this.sessions.revokeAllForUser(id, SESSION_REVOKED_ACCOUNT_DISABLED) : 0;
      if (revoked > 0) {
        await this.record(actor, ADMIN_USER_ACTIONS.revokeSessions, user, { activeSessions: revoked }, { activeSessions: 0, revoked });
      }
      return { user: toAdminUserResponse(user), changed: false, revokedSessions: revoked };
    }

    const removesActiveAdmin = status === 'disabled' && user.role === 'admin';
    if (removesActiveAdmin) await this.assertAnotherActiveAdmin();
    const updated = await this.users.setStatusIf(id, user.status, status);
    if (!updated) throw AdminUsersException.concurrentChange();
    if (removesActiveAdmin) await this.undoIfNoActiveAdminLeft(() => this.users.setStatusIf(id, status, user.status));

    // Status first, sessions second: every request and refresh re-reads the user, so a disabled
    // account is locked out from the moment the status is written. Revoking then makes sure no old
    // session comes back if the account is enabled again; if it fails, disabling again completes it.
    const revoked = status === 'disabled' ? await this.sessions.revokeAllForUser(id, SESSION_REVOKED_ACCOUNT_DISABLED) : 0;
    const action = status === 'disabled' ? ADMIN_USER_ACTIONS.disable : ADMIN_USER_ACTIONS.enable;
    await this.record(
      actor,
      action,
      updated,
      { status: user.status },
      status === 'disabled' ? { status, revokedSessions: revoked } : { status },
    );
    return { user: toAdminUserResponse(updated), changed: true, revokedSessions: revoked };
  }

  /** Signs the user out everywhere (their next request is a 401); an admin may do it to themselves. */
  async revokeSessions(actor: SessionUser, id: string): Promise<RevokeSessionsResponse> {
    const user = await this.require(id);
    const active = await this.sessions.countLiveForUser(id);
    const revoked = await this.sessions.revokeAllForUser(id, SESSION_REVOKED_BY_ADMIN);
    await this.record(actor, ADMIN_USER_ACTIONS.revokeSessions, user, { activeSessions: active }, { activeSessions: 0, revoked });
    return { revoked };
  }

  private async require(id: string): Promise<UserDocument> {
    const user = await this.users.findById(id);
    if (!user) throw AdminUsersException.notFound();
    return user;
  }

  /** Step 1: the target is one of the active admins, so another one must exist besides them. */
  private async assertAnotherActiveAdmin(): Promise<void> {
    if ((await this.users.countActiveAdmins()) < 2) throw this.lastAdmin();
  }

  /** Step 3: after our write, if a concurrent change left no active admin, put ours back and refuse. */
  private async undoIfNoActiveAdminLeft(undo: () => Promise<unknown>): Promise<void> {
    if ((await this.users.countActiveAdmins()) > 0) return;
    await undo();
    this.logger.warn('Concurrent admin changes would have left no active admin; one change was undone');
    throw this.lastAdmin();
  }

  private lastAdmin(): AdminUsersException {
    return new AdminUsersException(
      AdminUsersErrorCode.LastAdmin,
      'Hitscope needs at least one active admin. Make another user an admin first.',
    );
  }

  /**
   * Written after the change it describes: the change is the source of truth. If the entry cannot be
   * written the request fails (500) and the log line below keeps what the entry would have said.
   */
  private async record(
    actor: SessionUser,
    action: string,
    user: UserDocument,
    before: Record<string, unknown>,
    after: Record<string, unknown>,
  ): Promise<void> {
    try {
      await this.audit.record({
        actor: { id: actor.id, email: actor.email },
        action,
        target: { type: 'user', id: user.id as string, label: user.email },
        before,
        after,
      });
    } catch (error) {
      this.logger.error(
        `Audit entry not written: ${action} on user ${user.id as string} by ${actor.id} ${JSON.stringify({ before, after })}`,
      );
      throw error;
    }
  }
}
