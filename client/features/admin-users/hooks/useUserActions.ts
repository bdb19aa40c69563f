import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router';
import type { AdminUserDetail, UserStatus } from '../../../../lib/api/admin-users.js';
import type { Role, SessionUser } from '../../../../lib/api/auth.js';
import { useToast } from '../../../components/Toaster.js';
import { useChangeUserRole, useChangeUserStatus, useRefreshAdminUser, useRevokeUserSessions } from '../api.js';
import { plural } from '../format.js';
import { ME_KEY } from '../../../app/queries.js';

export type UserAction = { kind: 'role'; role: Role } | { kind: 'status'; status: UserStatus } | { kind: 'revoke' };

/** The panel section an action belongs to: its question, its error and the focus after it show there. */
export type ActionSection = 'access' | 'sessions';
export const sectionOf = (action: UserAction): ActionSection => (action.kind === 'revoke' ? 'sessions' : 'access');

export interface Confirmation {
  text: string;
  button: string;
  danger: boolean;
}

interface Pending {
  action: UserAction;
  /** The control that asked; a cancelled question gives it the focus back. */
  control: HTMLElement | null;
}

/**
 * The actions of the user panel: each is asked, confirmed, then sent. Afterwards the focus goes
 * where the admin was working, never to a destructive button they did not choose: the role select
 * after a role change (done or refused), the section heading after a disable, an enable or a
 * sign-out (the button they used has turned into the opposite action, or is "Sign out everywhere"
 * itself).
 */
export function useUserActions(user: AdminUserDetail, me: SessionUser | null) {
  const toast = useToast();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const refresh = useRefreshAdminUser();
  const changeRole = useChangeUserRole();
  const changeStatus = useChangeUserStatus();
  const revoke = useRevokeUserSessions();
  const busy = changeRole.isPending || changeStatus.isPending || revoke.isPending;
  const isSelf = me?.id === user.id;

  const [pending, setPending] = useState<Pending | null>(null);
  const [failure, setFailure] = useState<{ section: ActionSection; error: unknown } | null>(null);
  // The role the select shows: the stored one until the admin picks another.
  const [roleChoice, setRoleChoice] = useState<Role | null>(null);
  const role = roleChoice ?? user.role;

  const roleSelect = useRef<HTMLSelectElement>(null);
  const accessHeading = useRef<HTMLHeadingElement>(null);
  const sessionsHeading = useRef<HTMLHeadingElement>(null);
  const headingOf = (section: ActionSection) => (section === 'access' ? accessHeading : sessionsHeading);

  // Controls are disabled while a question is open or a request runs: the focus moves once the
  // render that enables its target is on screen.
  const focusNext = useRef<HTMLElement | null>(null);
  useEffect(() => {
    const target = focusNext.current;
    if (!target || busy || pending) return;
    if (!target.isConnected || (target as HTMLButtonElement | HTMLSelectElement).disabled) return;
    focusNext.current = null;
    target.focus();
  });

  const ask = (action: UserAction, control: HTMLElement | null) => {
    focusNext.current = null;
    setFailure(null);
    setPending({ action, control });
  };

  const cancel = () => {
    focusNext.current = pending?.control ?? null;
    setPending(null);
  };

  const settled = (action: UserAction) => {
    focusNext.current = action.kind === 'role' ? roleSelect.current : headingOf(sectionOf(action)).current;
    setPending(null);
  };

  const succeeded = (action: UserAction, message: string) => {
    toast(message, 'success', { key: `admin-user:${user.id}:${sectionOf(action)}` });
    // Stepping down or signing oneself out ends access to this page: leave it for the dashboard.
    if (isSelf && ((action.kind === 'role' && action.role === 'user') || action.kind === 'revoke')) {
      void queryClient.invalidateQueries({ queryKey: ME_KEY });
      void navigate(action.kind === 'revoke' ? '/login' : '/dashboard/lounge');
      return;
    }
    refresh(user.id);
    settled(action);
  };

  const failed = (action: UserAction, error: unknown) => {
    setFailure({ section: sectionOf(action), error });
    if (action.kind === 'role') setRoleChoice(null); // the select shows what is stored, not the refused choice
    refresh(user.id); // a refusal may come from a change somebody else made
    settled(action);
  };

  const send = (action: UserAction) => {
    const id = user.id;
    const onError = (error: unknown) => failed(action, error);
    if (action.kind === 'role') {
      changeRole.mutate(
        { id, role: action.role },
        {
          onSuccess: (result) =>
            succeeded(
              action,
              !result.changed
                ? `${user.name} already has the ${action.role} role`
                : action.role === 'admin'
                  ? `${user.name} is now an admin`
                  : `${user.name} is no longer an admin`,
            ),
          onError,
        },
      );
    } else if (action.kind === 'status') {
      changeStatus.mutate(
        { id, status: action.status },
        {
          onSuccess: (result) =>
            succeeded(
              action,
              action.status === 'active'
                ? result.changed
                  ? `${user.name} is enabled and can sign in again`
                  : `${user.name} is already active`
                : result.revokedSessions > 0
                  ? `${user.name} is disabled; ${plural(result.revokedSessions, 'session')} ended`
                  : `${user.name} is disabled`,
            ),
          onError,
        },
      );
    } else {
      revoke.mutate(
        { id },
        {
          onSuccess: (result) => succeeded(action, `${user.name} is signed out everywhere (${plural(result.revoked, 'session')} ended)`),
          onError,
        },
      );
    }
  };

  const confirmation = (action: UserAction): Confirmation => {
    if (action.kind === 'role') {
      if (action.role === 'admin') {
        return {
          text: `Make ${user.name} an admin? They can manage users and settings from their next page load.`,
          button: 'Make admin',
          danger: false,
        };
      }
      return {
        text: isSelf
          ? 'Remove your own admin role? You lose access to the admin area at once.'
          : `Remove ${user.name}’s admin role? They lose access to the admin area on their next request.`,
        button: 'Remove admin role',
        danger: true,
      };
    }
    if (action.kind === 'status') {
      return action.status === 'disabled'
        ? {
            text: `Disable ${user.name}? They are signed out everywhere and cannot sign in until enabled again.`,
            button: 'Disable account',
            danger: true,
          }
        : { text: `Enable ${user.name}? They can sign in again with their password.`, button: 'Enable account', danger: false };
    }
    return {
      text: isSelf
        ? 'Sign yourself out everywhere, including this browser?'
        : `Sign ${user.name} out everywhere? ${plural(user.sessions.active, 'active session')} will end; they can sign in again.`,
      button: 'Sign out everywhere',
      danger: true,
    };
  };

  return {
    isSelf,
    busy,
    /** Asking, or sending: the other actions wait. */
    locked: busy || pending !== null,
    role,
    chooseRole: setRoleChoice,
    ask,
    cancel,
    /** The open question of a section, if any. */
    questionIn: (section: ActionSection) =>
      pending && sectionOf(pending.action) === section ? { ...confirmation(pending.action), confirm: () => send(pending.action) } : null,
    /** The last refusal in a section, shown there until the next question. */
    errorIn: (section: ActionSection) => (failure?.section === section ? failure.error : null),
    refs: { roleSelect, accessHeading, sessionsHeading },
  };
}

export type UserActions = ReturnType<typeof useUserActions>;
