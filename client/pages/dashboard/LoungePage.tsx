import { TOOLS } from '../../../lib/product.js';
import { AppLink } from '../../components/AppLink.js';
import { Icon } from '../../components/Icon.js';
import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';
import { useMe } from '../../app/data-source.js';
import { TOOL_ICONS } from '../../components/tool-icons.js';
import './lounge.css';

export default function LoungePage() {
  const me = useMe();
  return (
    <>
      <PageHeader title={me ? `Welcome, ${me.name}` : 'Lounge'}>{'Your licences, subscription and tools at a glance.'}</PageHeader>
      <section aria-labelledby="lounge-tools-title" className="lounge-tools">
        <h2 id="lounge-tools-title">Tools</h2>
        <ul className="lounge-tools__grid">
          {TOOLS.map((tool) => (
            <li key={tool.slug}>
              <AppLink to={`/dashboard/tools/${tool.slug}`} className="card lounge-tool" preloadOnVisible>
                <span className="icon-chip icon-chip--small">
                  <Icon name={TOOL_ICONS[tool.slug]} size={20} />
                </span>
                <span className="lounge-tool__text">
                  <strong className="lounge-tool__name">{tool.name}</strong>
                  <span className="muted">{tool.summary}</span>
                </span>
              </AppLink>
            </li>
          ))}
        </ul>
      </section>
      <UpcomingSection title={'Latest releases and announcements'}>
        {'Release notes of Hitscope for Apps and Hitscope for Browsers, and announcements from the team, will appear here.'}
      </UpcomingSection>
    </>
  );
}
