import { useQuery } from '@tanstack/react-query';
import { routeRulesQuery } from '../api.js';
import { RouteRulesForm } from './RouteRulesForm.js';
import '../route-rules.css';

/** The admin's redirect rules: loaded once, then edited as a whole and saved together. */
export function RouteRulesEditor() {
  const rules = useQuery(routeRulesQuery());
  if (rules.isPending) {
    return (
      <div role="status" aria-busy="true" aria-label="Loading redirect rules" className="route-rules__loading">
        <div className="skeleton route-rules__skeleton" />
        <div className="skeleton route-rules__skeleton" />
      </div>
    );
  }
  if (rules.isError) {
    return (
      <div className="alert alert--error route-rules__load-error" role="alert">
        <span>Could not load the redirect rules.</span>
        <button type="button" className="button button--small" onClick={() => void rules.refetch()}>
          Retry
        </button>
      </div>
    );
  }
  // Mounted once the rules are here: the form starts from them and keeps its own edits afterwards
  // (a background refetch never overwrites what the admin is typing).
  return <RouteRulesForm saved={rules.data.rules} />;
}
