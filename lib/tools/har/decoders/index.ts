import { adobeAnalytics } from './adobe-analytics.js';
import { adobeAudienceManager } from './adobe-audience-manager.js';
import { adobeLaunch } from './adobe-launch.js';
import { adobeTarget } from './adobe-target.js';
import { adobeWebSdk } from './adobe-web-sdk.js';
import { adroll } from './adroll.js';
import { amazonAds } from './amazon-ads.js';
import { amplitude } from './amplitude.js';
import { clarity } from './clarity.js';
import { comscore } from './comscore.js';
import { criteo } from './criteo.js';
import { floodlight } from './floodlight.js';
import { fullstory } from './fullstory.js';
import { ga4 } from './ga4.js';
import { googleAds } from './google-ads.js';
import { googleTagManager } from './google-tag-manager.js';
import { heap } from './heap.js';
import { hotjar } from './hotjar.js';
import { hubspot } from './hubspot.js';
import { klaviyo } from './klaviyo.js';
import { linkedin } from './linkedin.js';
import { matomo } from './matomo.js';
import { meta } from './meta.js';
import { microsoftUet } from './microsoft-uet.js';
import { mixpanel } from './mixpanel.js';
import { mparticle } from './mparticle.js';
import { outbrain } from './outbrain.js';
import { piano } from './piano.js';
import { pinterest } from './pinterest.js';
import { piwikPro } from './piwik-pro.js';
import { plausible } from './plausible.js';
import { posthog } from './posthog.js';
import { quantcast } from './quantcast.js';
import { quora } from './quora.js';
import { reddit } from './reddit.js';
import { rudderstack } from './rudderstack.js';
import { segment } from './segment.js';
import { snapchat } from './snapchat.js';
import { snowplow } from './snowplow.js';
import { spotify } from './spotify.js';
import { taboola } from './taboola.js';
import { tealiumEventstream } from './tealium-eventstream.js';
import { tealiumIq } from './tealium-iq.js';
import { tiktok } from './tiktok.js';
import { tradeDesk } from './trade-desk.js';
import { ua } from './ua.js';
import { x } from './x.js';
import { yandexMetrica } from './yandex-metrica.js';

/**
 * Every vendor the HAR analyser decodes: adding a vendor is one file in this folder and one line
 * here. Order matters only where two decoders may claim the same request: the first that answers
 * wins (GA4 before Universal Analytics, both before the Google Ads and Floodlight decoders that
 * share Google's hosts; Adobe Analytics before Adobe Target on omtrdc.net; Piwik PRO before Matomo,
 * whose protocol it speaks; Segment before RudderStack, which follows Segment's spec).
 */
export const DECODERS = [
  // Google
  ga4,
  ua,
  googleAds,
  floodlight,
  googleTagManager,
  // Adobe
  adobeAnalytics,
  adobeWebSdk,
  adobeTarget,
  adobeAudienceManager,
  adobeLaunch,
  // Analytics
  piwikPro,
  matomo,
  segment,
  rudderstack,
  mixpanel,
  amplitude,
  mparticle,
  tealiumEventstream,
  piano,
  comscore,
  hubspot,
  posthog,
  heap,
  plausible,
  snowplow,
  yandexMetrica,
  // Experience
  clarity,
  hotjar,
  fullstory,
  // Tag managers
  tealiumIq,
  // Ads
  meta,
  tiktok,
  linkedin,
  microsoftUet,
  pinterest,
  snapchat,
  reddit,
  x,
  criteo,
  outbrain,
  amazonAds,
  tradeDesk,
  spotify,
  quora,
  taboola,
  quantcast,
  adroll,
  klaviyo,
] as const;
