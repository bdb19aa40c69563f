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
import type { AdminUserBilling, ManualOrderRequest, OrderView } from '../../../lib/api/billing.js';
import type { AdminLicenceList, GrantLicenceRequest } from '../../../lib/api/licences.js';
import { api } from '../../app/api-client.js';
import { toSearch } from './list-params.js';

const keys = {
  users: ['admin', 'users'] as const,
  list: (query: AdminUserListQuery) => ['admin', 'users', 'list', query] as const,
  detail: (id: string) => ['admin', 'users', 'detail', id] as const,
  audit: (targetId: string) => ['admin', 'audit-log', targetId] as const,
  licences: (userId: string) => ['admin', 'licences', userId] as const,
  billing: (userId: string) => ['admin', 'billing', 'user', userId] as const,
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

/* Commerce: licences, orders and subscription of one account -------------------------------- */

const licencePath = (id: string) => `/api/admin/licences/${encodeURIComponent(id)}`;

/** The licences of one account (key hints only: admins never see a full key). */
export const userLicencesQuery = (userId: string) =>
  queryOptions({
    queryKey: keys.licences(userId),
    queryFn: ({ signal }) => api<AdminLicenceList>(`${userPath(userId)}/licences`, { signal }),
    staleTime: 0,
    refetchOnMount: 'always',
  });

/** Orders, subscription and Stripe customer of one account. */
export const userBillingQuery = (userId: string) =>
  queryOptions({
    queryKey: keys.billing(userId),
    queryFn: ({ signal }) => api<AdminUserBilling>(`/api/admin/billing/users/${encodeURIComponent(userId)}`, { signal }),
    staleTime: 0,
    refetchOnMount: 'always',
  });

/** After a commerce change: the account's licences, billing and activity (a grant or an order is audited). */
function useRefreshCommerce() {
  const queryClient = useQueryClient();
  return (userId: string) => {
    void queryClient.invalidateQueries({ queryKey: keys.licences(userId) });
    void queryClient.invalidateQueries({ queryKey: keys.billing(userId) });
    void queryClient.invalidateQueries({ queryKey: keys.audit(userId) });
  };
}

/** Every answer of the licence writes is the account's licence list after the change. */
function useLicenceWrite<Vars extends { userId: string }>(request: (vars: Vars) => Promise<AdminLicenceList>) {
  const queryClient = useQueryClient();
  const refresh = useRefreshCommerce();
  return useMutation({
    mutationFn: request,
    onSuccess: (list, { userId }) => {
      queryClient.setQueryData(keys.licences(userId), list);
      refresh(userId);
    },
  });
}

export function useGrantLicence() {
  return useLicenceWrite(({ userId, ...body }: { userId: string } & GrantLicenceRequest) =>
    api<AdminLicenceList>(`${userPath(userId)}/licences`, { method: 'POST', body }),
  );
}

export function useRevokeLicence() {
  return useLicenceWrite(({ id }: { userId: string; id: string }) =>
    api<AdminLicenceList>(`${licencePath(id)}/revoke`, { method: 'POST' }),
  );
}

export function useResetActivations() {
  return useLicenceWrite(({ id }: { userId: string; id: string }) =>
    api<AdminLicenceList>(`${licencePath(id)}/activations/reset`, { method: 'POST' }),
  );
}

/** An order paid outside Stripe; its entitlement (a licence) follows on the server. */
export function useRecordManualOrder() {
  const refresh = useRefreshCommerce();
  return useMutation({
    mutationFn: (body: ManualOrderRequest) => api<OrderView>('/api/admin/billing/orders', { method: 'POST', body }),
    onSuccess: (_order, { userId }) => refresh(userId),
  });
}
