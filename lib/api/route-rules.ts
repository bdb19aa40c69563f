/**
 * Request and response shapes of the route-rules endpoints (src/settings): the public check asked
 * before every client-side navigation, and the admin list the /admin/settings editor saves.
 * Matching and validation live in lib/routes/route-rules.ts.
 */

export const REDIRECT_STATUSES = [301, 302, 307, 308] as const;
export type RedirectStatus = (typeof REDIRECT_STATUSES)[number];

/**
 * An admin-edited redirect rule. `source` is an exact path (`/old`) or a prefix (`/docs/*`); when
 * both source and target end in `/*`, the rest of the path is carried over (`/docs/a` → `/help/a`).
 */
export interface RouteRule {
  source: string;
  target: string;
  status: RedirectStatus;
}

export interface RouteRuleRedirect {
  location: string;
  status: RedirectStatus;
}

/** `GET /api/route-rules?path=…` (public, cacheable for 30 s). */
export interface RouteRuleCheckQuery {
  /** Path and query of the page about to open; must start with `/`. */
  path: string;
}

export interface RouteRuleCheckResponse {
  redirect: RouteRuleRedirect | null;
}

/** `GET /api/admin/route-rules`, and the answer of `PUT` (the rules as saved). */
export interface RouteRulesResponse {
  rules: readonly RouteRule[];
}

/**
 * `PUT /api/admin/route-rules`: replaces the whole list. Validation failures name the field as
 * `rules.<index>.<source|target|status>`.
 */
export interface UpdateRouteRulesRequest {
  rules: RouteRule[];
}
