import { Icon } from '../../../components/Icon.js';
import { REASONS, STEPS } from '../home-content.js';
import '../marketing.css';

export function HowItWorksSection() {
  return (
    <section className="section section--alt" aria-labelledby="how-title">
      <div className="container">
        <header className="section__header">
          <p className="eyebrow">How it works</p>
          <h2 id="how-title">From a broken report to the hit that caused it</h2>
        </header>
        <ol className="steps">
          {STEPS.map((step) => (
            <li className="steps__item" key={step.title}>
              <h3>{step.title}</h3>
              <p>{step.text}</p>
            </li>
          ))}
        </ol>
        <ul className="reasons">
          {REASONS.map((reason) => (
            <li className="reasons__item" key={reason.title}>
              <span className="icon-chip icon-chip--small">
                <Icon name={reason.icon} size={18} />
              </span>
              <div>
                <h3>{reason.title}</h3>
                <p className="muted">{reason.text}</p>
              </div>
            </li>
          ))}
        </ul>
      </div>
    </section>
  );
}
