import type { RouteRule } from '../api/route-rules.js';
import { isValidRuleSource, isValidRuleTarget, resolveRouteRule } from './route-rules.js';

const rules: RouteRule[] = [
  { source: '/old', target: '/new', status: 301 },
  { source: '/docs/*', target: '/help/*', status: 308 },
  { source: '/docs/legacy/*', target: '/archive', status: 302 },
  { source: '/out', target: 'https://example.com/landing', status: 307 },
  { source: '/self', target: '/self', status: 302 },
];

describe('route rules', () => {
  it('redirects exact paths and keeps the query', () => {
    expect(resolveRouteRule(rules, '/old', '?a=1')).toEqual({ location: '/new?a=1', status: 301 });
  });

  it('carries the rest of the path for prefix rules and prefers the longest prefix', () => {
    expect(resolveRouteRule(rules, '/docs/setup/ga4')).toEqual({ location: '/help/setup/ga4', status: 308 });
    expect(resolveRouteRule(rules, '/docs')).toEqual({ location: '/help', status: 308 });
    expect(resolveRouteRule(rules, '/docs/legacy/x')).toEqual({ location: '/archive', status: 302 });
  });

  it('does not match a prefix inside a longer segment, nor redirect a page to itself', () => {
    expect(resolveRouteRule(rules, '/docsearch')).toBeNull();
    expect(resolveRouteRule(rules, '/self')).toBeNull();
    expect(resolveRouteRule(rules, '/elsewhere')).toBeNull();
  });

  it('allows external http(s) targets only', () => {
    expect(resolveRouteRule(rules, '/out')?.location).toBe('https://example.com/landing');
    expect(isValidRuleTarget('javascript:alert(1)')).toBe(false);
    expect(isValidRuleTarget('//evil.example')).toBe(false);
    expect(isValidRuleTarget('/fine')).toBe(true);
  });

  it('validates sources', () => {
    expect(isValidRuleSource('/a/b')).toBe(true);
    expect(isValidRuleSource('/a/*')).toBe(true);
    expect(isValidRuleSource('a')).toBe(false);
    expect(isValidRuleSource('/a*')).toBe(false);
    expect(isValidRuleSource('//a')).toBe(false);
  });
});
