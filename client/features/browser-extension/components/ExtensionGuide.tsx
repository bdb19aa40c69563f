import { useId } from 'react';
import { COMPANION_PRODUCTS } from '../../../../lib/product.js';
import '../browser-extension.css';

const NAME = COMPANION_PRODUCTS.browsers.name;

/**
 * What the extension does, a real screenshot of its panel (light and dark, taken by
 * test/extension/screenshots.spec.ts from a real capture), and how to install it in each browser.
 */
export function ExtensionGuide() {
  const id = useId();
  return (
    <section className="card extension-guide" aria-labelledby={`${id}-title`}>
      <div className="extension-guide__text">
        <h2 id={`${id}-title`}>The extension</h2>
        <p>
          {NAME} shows every analytics hit of the page as it is sent, in the browser's side panel or in DevTools, without opening anything
          first: capture keeps going across reloads and navigations until you clear it.
        </p>
        <ul className="extension-guide__features">
          <li>
            GA4 with batched POST bodies and sendBeacon, server-side GTM on your own domain, Google Ads, Floodlight, Adobe, Matomo, Piwik
            PRO, Segment, Mixpanel, Amplitude, Tealium, Meta, TikTok, LinkedIn and the other vendors the HAR analyser knows, decoded into
            named parameters; a request to a known endpoint that is not a valid hit is shown with the reason.
          </li>
          <li>Every dataLayer push and gtag() call beside the hits, with the script that made it.</li>
          <li>Consent mode over time: the default, each update and the state every Google hit carried.</li>
          <li>
            With a licence: validation (the HAR analyser's checks and live ones, such as a tag firing before the consent default) and export
            as HAR or CSV.
          </li>
        </ul>
      </div>
      <figure className="extension-guide__shot">
        <picture>
          <source srcSet="/images/hitscope-for-browsers-panel-dark.png" media="(prefers-color-scheme: dark)" />
          <img
            src="/images/hitscope-for-browsers-panel-light.png"
            width={1280}
            height={800}
            loading="lazy"
            alt={`${NAME} beside a shop's page: the list of hits and dataLayer pushes grouped by page load, and a GA4 view_item hit decoded into its parameters.`}
          />
        </picture>
        <figcaption className="muted">The panel with a real capture: a batched GA4 beacon opened, its parameters named.</figcaption>
      </figure>
      <div className="extension-guide__install">
        <h3>Install it</h3>
        <details open>
          <summary>Chrome, Edge, Brave and other Chromium browsers</summary>
          <ol>
            <li>Download the Chrome build below and unzip it into a folder you keep.</li>
            <li>
              Open <code>chrome://extensions</code> (<code>edge://extensions</code> in Edge) and switch on <strong>Developer mode</strong>.
            </li>
            <li>
              Choose <strong>Load unpacked</strong> and pick the folder. Pin {NAME} and click it to open the side panel; it is also a{' '}
              <strong>Hitscope</strong> tab in DevTools.
            </li>
          </ol>
        </details>
        <details>
          <summary>Firefox</summary>
          <ol>
            <li>
              Download the Firefox build (<code>.xpi</code>). Firefox installs only add-ons signed by Mozilla: until the signed version is
              listed, load it for a session from <code>about:debugging#/runtime/this-firefox</code>, <strong>Load Temporary Add-on…</strong>
              .
            </li>
            <li>The capture opens in Firefox's sidebar (View › Sidebar › Hitscope) and in DevTools.</li>
          </ol>
        </details>
        <details>
          <summary>Your licence</summary>
          <p>
            Open the extension's settings (the gear in its panel), enter this site's address and the licence key below. The browser takes
            one seat of the licence; deactivate it there to move the seat to another browser.
          </p>
        </details>
      </div>
    </section>
  );
}
