import { AppLink } from '../../components/AppLink.js';
import '../../components/ErrorScreen.css';

/** `/error`: where a failed action can send people; the 404/500 screens are rendered by the router. */
export default function ErrorPage() {
  return (
    <section className="card error-screen" aria-labelledby="error-title">
      <h1 id="error-title">Something went wrong</h1>
      <p className="error-screen__message">
        That did not work as it should. Nothing you entered was lost; go back and try again, or start from the home page.
      </p>
      <div className="error-screen__actions">
        <AppLink to="/" className="button button--primary">
          Home
        </AppLink>
        <button type="button" className="button" onClick={() => window.history.back()}>
          Go back
        </button>
      </div>
    </section>
  );
}
