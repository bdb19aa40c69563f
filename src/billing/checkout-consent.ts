import type Stripe from 'stripe';
import { productsText } from '../../lib/billing/plan-copy.js';
import type { PlanInterval } from '../../lib/api/catalogue.js';
import { TERMS_PATH, WITHDRAWAL_SECTION_ID } from '../../lib/api/site-settings.js';
import type { ProductSlug } from '../../lib/product.js';
import type { TermsConsent } from '../config/app-config.js';

/**
 * What Checkout asks before payment, as the terms promise: the buyer accepts the terms and asks for
 * the licence to be delivered at once, acknowledging that the 14-day right of withdrawal for
 * digital content ends with that delivery (EU Directive 2011/83, art. 16(m)). Stripe shows the
 * `terms_of_service_acceptance` text beside a required checkbox in place of its default sentence,
 * and records the answer on the session (`consent.terms_of_service: accepted`, kept on the order).
 *
 * `consent_collection.terms_of_service: 'required'` needs a terms of service URL in the Stripe
 * dashboard (Settings → Business → Public details); without one Stripe refuses to make the
 * session. STRIPE_TERMS_CONSENT=off leaves the checkbox out and says the same words beside the
 * pay button instead (docs/billing.md).
 */
export function checkoutConsent(
  publicUrl: string,
  mode: TermsConsent,
  plan: { interval: PlanInterval; products: readonly ProductSlug[] },
): Pick<Stripe.Checkout.SessionCreateParams, 'consent_collection' | 'custom_text'> {
  const terms = `${publicUrl}${TERMS_PATH}`;
  const withdrawal = `${terms}#${WITHDRAWAL_SECTION_ID}`;
  const delivery = `Your licence key${plan.products.length === 1 ? '' : 's'} for ${productsText(plan.products)} ${plan.products.length === 1 ? 'is' : 'are'} delivered right after payment, by e-mail and in your dashboard.`;
  const consent =
    `I agree to the [terms of service](${terms}) and ask for my licence to be delivered immediately. ` +
    `I understand that I lose my 14-day [right of withdrawal](${withdrawal}) once it is delivered.`;
  const renewal = plan.interval === 'lifetime' ? '' : ' You can cancel the subscription at the end of any billing period.';
  if (mode === 'required') {
    return {
      consent_collection: { terms_of_service: 'required' },
      custom_text: { terms_of_service_acceptance: { message: consent }, submit: { message: `${delivery}${renewal}` } },
    };
  }
  return { custom_text: { submit: { message: `${delivery} By paying: ${consent}${renewal}` } } };
}
