import { queryOptions, useMutation, useQueryClient } from '@tanstack/react-query';
import type {
  AdminPlan,
  AdminPlanList,
  AdminProductList,
  CatalogueProduct,
  CreatePlanRequest,
  UpdatePlanRequest,
  UpdateProductRequest,
} from '../../../lib/api/catalogue.js';
import type { StripeCatalogueView } from '../../../lib/api/billing.js';
import { api } from '../../app/api-client.js';

const PLANS_PATH = '/api/admin/catalogue/plans';

/** Every plan, inactive ones too (the public `/api/catalogue` lists the active ones only). */
export const adminPlansQuery = () =>
  queryOptions({
    queryKey: ['admin', 'catalogue', 'plans'] as const,
    queryFn: ({ signal }) => api<AdminPlanList>(PLANS_PATH, { signal }),
    staleTime: 0,
  });

/** After a change: the admin list, and the public catalogue the pricing pages read. */
function useRefreshPlans() {
  const queryClient = useQueryClient();
  return () => {
    void queryClient.invalidateQueries({ queryKey: adminPlansQuery().queryKey });
    void queryClient.invalidateQueries({ queryKey: ['catalogue'] });
    void queryClient.invalidateQueries({ queryKey: ['admin', 'catalogue', 'stripe'] });
  };
}

export function useCreatePlan() {
  const refresh = useRefreshPlans();
  return useMutation({
    mutationFn: (body: CreatePlanRequest) => api<AdminPlan>(PLANS_PATH, { method: 'POST', body }),
    onSuccess: refresh,
  });
}

export function useUpdatePlan() {
  const refresh = useRefreshPlans();
  return useMutation({
    mutationFn: ({ id, changes }: { id: string; changes: UpdatePlanRequest }) =>
      api<AdminPlan>(`${PLANS_PATH}/${encodeURIComponent(id)}`, { method: 'PATCH', body: changes }),
    onSuccess: refresh,
  });
}

/** Off sale: it leaves the public catalogue; orders and licences that name it keep working. */
export function useDeactivatePlan() {
  const refresh = useRefreshPlans();
  return useMutation({
    mutationFn: (id: string) => api<AdminPlan>(`${PLANS_PATH}/${encodeURIComponent(id)}/deactivate`, { method: 'POST' }),
    onSuccess: refresh,
  });
}

const PRODUCTS_PATH = '/api/admin/catalogue/products';

/** The companion products with their switches, read past every cache (the public catalogue is cached for a minute). */
export const adminProductsQuery = () =>
  queryOptions({
    queryKey: ['admin', 'catalogue', 'products'] as const,
    queryFn: ({ signal }) => api<AdminProductList>(PRODUCTS_PATH, { signal }),
    staleTime: 0,
  });

/** Free downloads on or off; the answer is the product as stored. */
export function useUpdateProduct() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ slug, changes }: { slug: string; changes: UpdateProductRequest }) =>
      api<CatalogueProduct>(`${PRODUCTS_PATH}/${encodeURIComponent(slug)}`, { method: 'PUT', body: changes }),
    onSuccess: (product) => {
      queryClient.setQueryData(adminProductsQuery().queryKey, (list) =>
        list ? { products: list.products.map((item) => (item.slug === product.slug ? product : item)) } : list,
      );
      void queryClient.invalidateQueries({ queryKey: adminProductsQuery().queryKey });
      void queryClient.invalidateQueries({ queryKey: ['catalogue'] });
    },
  });
}

const STRIPE_PATH = '/api/admin/billing/stripe-catalogue';

/** How each plan is sold through Stripe: its Price (an administrator's, or the one the app keeps in step), or not yet made. */
export const adminStripeCatalogueQuery = () =>
  queryOptions({
    queryKey: ['admin', 'catalogue', 'stripe'] as const,
    queryFn: ({ signal }) => api<StripeCatalogueView>(STRIPE_PATH, { signal }),
    staleTime: 0,
  });

/** Makes or updates every active plan's Stripe Product and Price now (otherwise the next checkout of a plan does). */
export function useSyncStripeCatalogue() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => api<StripeCatalogueView>(`${STRIPE_PATH}/sync`, { method: 'POST' }),
    onSuccess: (view) => queryClient.setQueryData(adminStripeCatalogueQuery().queryKey, view),
  });
}
