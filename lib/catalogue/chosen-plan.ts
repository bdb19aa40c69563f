import { PLAN_ID_PATTERN } from '../api/catalogue.js';
import { safeRedirectPath } from '../http/safe-redirect.js';

/**
 * The plan a visitor chose before signing up: "Choose <plan>" on the home page sends them to
 * `/register?redirect=/dashboard/user/subscription?plan=<id>`, and that target is kept through
 * registration, the e-mailed link and sign-in. Null when the target names no (well-formed) plan.
 */
export function chosenPlanId(redirect: string | null | undefined): string | null {
  const target = safeRedirectPath(redirect);
  if (!target) return null;
  const plan = new URL(target, 'http://same-site.invalid').searchParams.get('plan');
  return plan && PLAN_ID_PATTERN.test(plan) ? plan : null;
}
