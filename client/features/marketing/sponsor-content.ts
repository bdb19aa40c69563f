export const SPONSOR_EMAIL = 'sponsors@hitscope.dev';

export const mailto = (subject: string) => `mailto:${SPONSOR_EMAIL}?subject=${encodeURIComponent(subject)}`;

export const TIERS = [
  {
    id: 'supporter',
    name: 'Supporter',
    monthlyPrice: 5,
    pitch: 'For individual analytics engineers who use the free tools and want them to stay.',
    benefits: [
      'Your name in the sponsors list on this page',
      'A thank-you in the release notes of the next version',
      'Our gratitude, every time GA4 changes something',
    ],
  },
  {
    id: 'backer',
    name: 'Backer',
    monthlyPrice: 25,
    pitch: 'For freelancers and small agencies whose client work runs on these tools.',
    benefits: [
      'Everything in Supporter',
      'Your logo and a link on this page',
      'A Solo licence for both companion products while you sponsor',
      'Your feature requests read and answered first',
    ],
  },
  {
    id: 'partner',
    name: 'Partner',
    monthlyPrice: 250,
    pitch: 'For agencies and analytics teams that want a say in where the product goes.',
    benefits: [
      'Everything in Backer',
      'A large logo at the top of this page and a mention in the newsletter',
      'A Team licence (5 seats) for both companion products',
      'A quarterly call with the maintainers about the roadmap and your tracking setups',
    ],
  },
] as const;

/** Sponsors are edited in /admin/settings; until that lands, the list is honestly empty. */
export const SPONSORS: ReadonlyArray<{ name: string; url: string; tier: string }> = [];
