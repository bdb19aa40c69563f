import type { Pairs } from '../query.js';
import type { CapturedRequest, HitDraft } from '../request.js';
import { linkedin } from './linkedin.js';
import { microsoftUet } from './microsoft-uet.js';
import { pinterest } from './pinterest.js';
import { reddit } from './reddit.js';
import { snapchat } from './snapchat.js';
import { tiktok } from './tiktok.js';
import { x } from './x.js';

/**
 * The ad pixels that were decoded here before each vendor got its own file (tiktok.ts, linkedin.ts,
 * microsoft-uet.ts, pinterest.ts, snapchat.ts, reddit.ts, x.ts). Kept for code that imported them;
 * the analyser itself dispatches through dispatch.ts.
 */
const PIXELS = [tiktok, linkedin, microsoftUet, pinterest, snapchat, reddit, x];

/** Decodes a TikTok, LinkedIn, Microsoft UET, Pinterest, Snap, Reddit or X pixel request. */
export function decodePixel(request: CapturedRequest, queryPairs: Pairs): HitDraft[] | null {
  for (const pixel of PIXELS) {
    const drafts = pixel.decode(request, queryPairs);
    if (drafts) return drafts;
  }
  return null;
}

/** Hosts of the pixels above, as one pattern over a request URL. */
export const PIXEL_CANDIDATE =
  /tiktok\.com\/api\/|ads\.linkedin\.com\/|bat\.bing\.|ct\.pinterest\.com\/|snapchat\.com\/|alb\.reddit\.com\/rp|\/i\/adsct/;
