import { type Ref, useId } from 'react';
import { TOOLS } from '../../../../lib/product.js';
import { AppLink } from '../../../components/AppLink.js';
import { Icon } from '../../../components/Icon.js';
import { TOOL_ICONS } from '../../../components/tool-icons.js';
import '../lounge.css';

/** A card per tool; each link is named by its tool, and its summary describes it. */
export function ToolShortcuts({ headingRef }: { headingRef?: Ref<HTMLHeadingElement> }) {
  const id = useId();
  return (
    <section aria-labelledby={`${id}-title`} className="lounge-tools">
      <h2 id={`${id}-title`} ref={headingRef} tabIndex={-1} className="lounge-tools__title">
        Tools
      </h2>
      <ul className="lounge-tools__grid">
        {TOOLS.map((tool) => (
          <li key={tool.slug}>
            <AppLink
              to={`/dashboard/tools/${tool.slug}`}
              className="card lounge-tool"
              aria-labelledby={`${id}-${tool.slug}-name`}
              aria-describedby={`${id}-${tool.slug}-summary`}
              preloadOnVisible
            >
              <span className="icon-chip icon-chip--small">
                <Icon name={TOOL_ICONS[tool.slug]} size={20} />
              </span>
              <span className="lounge-tool__text">
                <strong id={`${id}-${tool.slug}-name`} className="lounge-tool__name">
                  {tool.name}
                </strong>
                <span id={`${id}-${tool.slug}-summary`} className="muted">
                  {tool.summary}
                </span>
              </span>
            </AppLink>
          </li>
        ))}
      </ul>
    </section>
  );
}
