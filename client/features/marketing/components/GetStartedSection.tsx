import { AppLink } from '../../../components/AppLink.js';
import { useMe } from '../../../app/data-source.js';
import { CtaBand } from './CtaBand.js';

export function GetStartedSection() {
  const me = useMe();
  return (
    <CtaBand
      id="cta-title"
      title="Your next tracking bug is already in a HAR file"
      actions={
        me ? (
          <AppLink to="/dashboard/lounge" className="button button--primary button--large">
            Open your dashboard
          </AppLink>
        ) : (
          <>
            <AppLink to="/register" className="button button--primary button--large">
              Start for free
            </AppLink>
            <AppLink to="/login" className="button button--large">
              Sign in
            </AppLink>
          </>
        )
      }
    >
      Create a free account and open the tools in under a minute. No card needed.
    </CtaBand>
  );
}
