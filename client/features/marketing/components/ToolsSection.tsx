import { TOOLS } from '../../../../lib/product.js';
import { Icon } from '../../../components/Icon.js';
import { TOOL_DETAILS } from '../home-content.js';
import { CheckList } from './CheckList.js';
import '../marketing.css';

export function ToolsSection() {
  return (
    <section className="section" aria-labelledby="tools-title">
      <div className="container">
        <header className="section__header">
          <p className="eyebrow">The workbench</p>
          <h2 id="tools-title">Four tools for the questions you ask every week</h2>
          <p>
            Why is this hit missing its consent state? Why did the session break at the checkout domain? Will GA4 accept this payload? Each
            tool answers one of them, with the evidence.
          </p>
        </header>
        <ul className="feature-grid">
          {TOOLS.map((tool) => {
            const details = TOOL_DETAILS[tool.slug];
            return (
              <li className="card feature-card" key={tool.slug}>
                <span className="icon-chip">
                  <Icon name={details.icon} size={22} />
                </span>
                <h3>{tool.name}</h3>
                <p className="muted">{tool.summary}</p>
                <CheckList items={details.points} />
              </li>
            );
          })}
        </ul>
      </div>
    </section>
  );
}
