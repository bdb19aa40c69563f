import type { RouteRule, RouteRuleRedirect } from '../api/route-rules.js';

const isPrefix = (source: string) => source.endsWith('/*');

export function isValidRuleSource(source: string): boolean {
  return /^\/[A-Za-z0-9\-._~!$&'()+,;=:@%/]*(\/\*)?$/.test(source) && !source.includes('//');
}

/** Targets are same-site paths or absolute http(s) URLs. */
export function isValidRuleTarget(target: string): boolean {
  if (target.startsWith('/')) return !target.startsWith('//') && !/[\s\\]/.test(target);
  try {
    const url = new URL(target);
    return url.protocol === 'https:' || url.protocol === 'http:';
  } catch {
    return false;
  }
}

/** Exact rules win; among prefix rules the longest prefix wins. Returns null when none applies. */
export function resolveRouteRule(rules: readonly RouteRule[], pathname: string, search = ''): RouteRuleRedirect | null {
  let best: RouteRule | null = rules.find((rule) => !isPrefix(rule.source) && rule.source === pathname) ?? null;
  if (!best) {
    for (const rule of rules) {
      if (!isPrefix(rule.source)) continue;
      const base = rule.source.slice(0, -2);
      const matches = pathname === base || pathname.startsWith(`${base}/`);
      if (matches && (!best || rule.source.length > best.source.length)) best = rule;
    }
  }
  if (!best) return null;
  let location = best.target;
  if (isPrefix(best.source) && best.target.endsWith('/*')) {
    const rest = pathname.slice(best.source.length - 2);
    location = best.target.slice(0, -2) + rest;
  }
  if (location === pathname) return null; // a rule never redirects a page to itself
  return { location: location + (location.includes('?') ? '' : search), status: best.status };
}
