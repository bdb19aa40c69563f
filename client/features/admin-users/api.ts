import { keepPreviousData, queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AdminUserDetail,
  AdminUserList,
  AdminUserListQuery,
  RevokeSessionsResponse,
  UpdateUserRoleRequest,
  UpdateUserStatusRequest,
  UserRoleChangeResponse,
  UserStatusChangeResponse,
} from '../../../lib/api/admin-users.js';
import type { AuditLogPage, AuditLogQuery } from '../../../lib/api/audit.js';
import { api } from '../../app/api-client.js';
import { toSearch } from './list-params.js';

const keys = {
  users: ['admin', 'users'] as const,
  list: (query: AdminUserListQuery) => ['admin', 'users', 'list', query] as const,
  detail: (id: string) => ['admin', 'users', 'detail', id] as const,
  audit: (targetId: string) => ['admin', 'audit-log', targetId] as const,
};

const userPath = (id: string) => `/api/admin/users/${encodeURIComponent(id)}`;

/** One page of the users list; the previous page stays on screen while the next one loads. */
export const adminUserListQuery = (query: AdminUserListQuery) =>
  queryOptions({
    queryKey: keys.list(query),
    queryFn: ({ signal }) => api<AdminUserList>(`/api/admin/users?${toSearch(query).toString()}`, { signal }),
    placeholderData: keepPreviousData,
  });

export const adminUserDetailQuery = (id: string) =>
  queryOptions({
    queryKey: keys.detail(id),
    queryFn: ({ signal }) => api<AdminUserDetail>(userPath(id), { signal }),
    // Opening the panel always asks again: sessions and status change outside this page (a sign-in,
    // another admin), and the actions the panel offers are decided from what it shows.
    staleTime: 0,
    refetchOnMount: 'always',
  });

export const RECENT_ACTIVITY_SIZE = 10;

/** The latest admin actions on one account. */
export const userAuditQuery = (targetId: string) =>
  queryOptions({
    queryKey: keys.audit(targetId),
    queryFn: ({ signal }) => {
      const query: AuditLogQuery = { targetId, pageSize: RECENT_ACTIVITY_SIZE };
      return api<AuditLogPage>(`/api/admin/audit-log?${toSearch(query).toString()}`, { signal });
    },
  });

/** After a change to one account (or a refusal: someone else may have changed it): the list, its panel and its activity. */
export function useRefreshAdminUser() {
  const queryClient = useQueryClient();
  return (id: string) => {
    void queryClient.invalidateQueries({ queryKey: keys.users });
    void queryClient.invalidateQueries({ queryKey: keys.audit(id) });
  };
}

export function useChangeUserRole() {
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string } & UpdateUserRoleRequest) =>
      api<UserRoleChangeResponse>(`${userPath(id)}/role`, { method: 'PATCH', body }),
  });
}

export function useChangeUserStatus() {
  return useMutation({
    mutationFn: ({ id, ...body }: { id: string } & UpdateUserStatusRequest) =>
      api<UserStatusChangeResponse>(`${userPath(id)}/status`, { method: 'PATCH', body }),
  });
}

export function useRevokeUserSessions() {
  return useMutation({
    mutationFn: ({ id }: { id: string }) => api<RevokeSessionsResponse>(`${userPath(id)}/sessions/revoke`, { method: 'POST' }),
  });
}
