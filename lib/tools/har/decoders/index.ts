import { floodlight } from './floodlight.js';
import { ga4 } from './ga4.js';
import { googleAds } from './google-ads.js';
import { linkedin } from './linkedin.js';
import { meta } from './meta.js';
import { microsoftUet } from './microsoft-uet.js';
import { pinterest } from './pinterest.js';
import { reddit } from './reddit.js';
import { snapchat } from './snapchat.js';
import { tiktok } from './tiktok.js';
import { ua } from './ua.js';
import { x } from './x.js';

/**
 * Every vendor the HAR analyser decodes: adding a vendor is one file in this folder and one line
 * here. Order matters only where two decoders may claim the same request: the first that answers
 * wins (GA4 before Universal Analytics, both before the Google Ads and Floodlight decoders that
 * share Google's hosts).
 */
export const DECODERS = [ga4, ua, googleAds, floodlight, meta, tiktok, linkedin, microsoftUet, pinterest, snapchat, reddit, x] as const;
