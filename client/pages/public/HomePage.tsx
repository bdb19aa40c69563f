import { PRODUCT, TOOLS } from '../../../lib/product.js';
import { AppLink } from '../../components/AppLink.js';

export default function HomePage() {
  return (
    <>
      <section className="hero container">
        <h1>{PRODUCT.tagline}</h1>
        <p>{PRODUCT.description}</p>
        <div className="hero__actions">
          <AppLink to="/register" className="button button--primary">
            Create a free account
          </AppLink>
          <AppLink to="/login" className="button">
            Sign in
          </AppLink>
        </div>
      </section>
      <section className="section container" aria-labelledby="tools-title">
        <h2 id="tools-title">Four tools</h2>
        <div className="grid">
          {TOOLS.map((tool) => (
            <article className="card" key={tool.slug}>
              <h3>{tool.name}</h3>
              <p className="muted">{tool.summary}</p>
            </article>
          ))}
        </div>
      </section>
    </>
  );
}
