/** Public list prices (EUR per month) shown on the home page and in structured data. The editable
 * catalogue of plans arrives with billing; until then this is the one source of these numbers. */
export const PRICING = [
  { id: 'solo', name: 'Solo', monthlyPrice: 9, seats: 1, features: ['1 seat', 'Both companion products', 'E-mail support'] },
  { id: 'team', name: 'Team', monthlyPrice: 29, seats: 5, features: ['5 seats', 'Both companion products', 'Priority support'] },
  { id: 'agency', name: 'Agency', monthlyPrice: 79, seats: 20, features: ['20 seats', 'Both companion products', 'Onboarding call'] },
] as const;
