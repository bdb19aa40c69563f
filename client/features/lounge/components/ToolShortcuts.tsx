import { type Ref, useId } from 'react';
import { TOOLS } from '../../../../lib/product.js';
import { AppLink } from '../../../components/AppLink.js';
import { Icon } from '../../../components/Icon.js';
import { TOOL_ICONS } from '../../../components/tool-icons.js';
import '../lounge.css';

/**
 * A card per tool. The link is the tool's name (so a list of links reads as a list of tools) and
 * the summary describes it; the whole card is its click target.
 */
export function ToolShortcuts({ headingRef }: { headingRef?: Ref<HTMLHeadingElement> }) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`} className="lounge-tools">
      <h2 id={`${id}-title`} ref={headingRef} tabIndex={-1} className="lounge-tools__title">
        Tools
      </h2>
      <ul className="lounge-tools__grid">
        {TOOLS.map((tool) => (
          <li key={tool.slug} className="card lounge-tool">
            <span className="icon-chip icon-chip--small">
              <Icon name={TOOL_ICONS[tool.slug]} size={20} />
            </span>
            <span className="lounge-tool__text">
              <AppLink
                to={`/dashboard/tools/${tool.slug}`}
                className="lounge-tool__link"
                aria-describedby={`${id}-${tool.slug}-summary`}
                preloadOnVisible
              >
                {tool.name}
              </AppLink>
              <span id={`${id}-${tool.slug}-summary`} className="muted">
                {tool.summary}
              </span>
            </span>
          </li>
        ))}
      </ul>
    </section>
  );
}
