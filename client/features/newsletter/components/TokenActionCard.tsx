import { useSearchParams } from 'react-router';
import { AppLink } from '../../../components/AppLink.js';
import { Icon } from '../../../components/Icon.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useConfirmSubscription, useUnsubscribe } from '../api.js';
import '../newsletter.css';

const COPY = {
  confirm: {
    title: 'Confirm your subscription',
    intro: 'One click and the newsletter is on its way: release notes and the GA4 changes that break tracking.',
    button: 'Confirm subscription',
    busy: 'Confirming…',
    doneTitle: 'Subscription confirmed',
  },
  unsubscribe: {
    title: 'Unsubscribe from the newsletter',
    intro: 'We will stop sending the newsletter to this address. You can subscribe again at any time.',
    button: 'Unsubscribe',
    busy: 'Unsubscribing…',
    doneTitle: 'You are unsubscribed',
  },
} as const;

/**
 * The page a link in a newsletter mail opens. Opening it changes nothing: link scanners and mail
 * previews fetch every link, so only the button (a POST) confirms or unsubscribes. It is never
 * pressed by script either, since a headless scanner would run the script.
 */
export function TokenActionCard({ action }: { action: 'confirm' | 'unsubscribe' }) {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const confirm = useConfirmSubscription();
  const unsubscribe = useUnsubscribe();
  const mutation = action === 'confirm' ? confirm : unsubscribe;
  const copy = COPY[action];

  if (mutation.isSuccess) {
    return (
      <section className="card newsletter-card" aria-labelledby="newsletter-card-title">
        <span className="icon-chip newsletter-card__icon">
          <Icon name="mail" size={22} />
        </span>
        <h1 id="newsletter-card-title">{copy.doneTitle}</h1>
        <p className="muted" role="status">
          {mutation.data.message}
        </p>
        <AppLink to="/" className="button">
          Back to home
        </AppLink>
      </section>
    );
  }

  return (
    <section className="card newsletter-card" aria-labelledby="newsletter-card-title">
      <span className="icon-chip newsletter-card__icon">
        <Icon name="mail" size={22} />
      </span>
      <h1 id="newsletter-card-title">{copy.title}</h1>
      {token ? (
        <>
          <p className="muted">{copy.intro}</p>
          <FormAlert error={mutation.error} />
          <button type="button" className="button button--primary" disabled={mutation.isPending} onClick={() => mutation.mutate(token)}>
            {mutation.isPending ? copy.busy : copy.button}
          </button>
        </>
      ) : (
        <>
          <div className="alert alert--error" role="alert">
            This link is incomplete. Open it again from the e-mail, or copy the whole address into the browser.
          </div>
          <AppLink to="/" className="button">
            Back to home
          </AppLink>
        </>
      )}
    </section>
  );
}
