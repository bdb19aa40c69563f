import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { REDIRECT_STATUSES, type RouteRule } from '../../../lib/routes/route-rules.js';
import { PageHeader, UpcomingSection } from '../../components/PageHeader.js';
import { useToast } from '../../components/Toaster.js';
import { api, ApiError } from '../../app/api-client.js';

const rulesQuery = { queryKey: ['admin', 'route-rules'] as const, queryFn: () => api<{ rules: RouteRule[] }>('/api/admin/route-rules') };

function RouteRulesEditor() {
  const queryClient = useQueryClient();
  const toast = useToast();
  const { data, isPending, isError, refetch } = useQuery(rulesQuery);
  const [rules, setRules] = useState<RouteRule[]>([]);
  const [fieldErrors, setFieldErrors] = useState<Record<string, string[]>>({});
  useEffect(() => {
    if (data) setRules(data.rules);
  }, [data]);

  const save = useMutation({
    mutationFn: (next: RouteRule[]) => api<{ rules: RouteRule[] }>('/api/admin/route-rules', { method: 'PUT', body: { rules: next } }),
    onSuccess: (saved) => {
      queryClient.setQueryData(rulesQuery.queryKey, saved);
      queryClient.removeQueries({ queryKey: ['route-rule'] });
      setFieldErrors({});
      toast('Redirect rules saved', 'success');
    },
    onError: (error) => {
      if (error instanceof ApiError) setFieldErrors(error.fields);
      toast(error.message, 'error');
    },
  });

  if (isPending) {
    return (
      <div aria-busy="true" aria-label="Loading redirect rules" style={{ display: 'grid', gap: '0.5rem' }}>
        <div className="skeleton" style={{ height: '2.5rem' }} />
        <div className="skeleton" style={{ height: '2.5rem' }} />
      </div>
    );
  }
  if (isError) {
    return (
      <div className="alert alert--error" role="alert">
        Could not load the redirect rules.{' '}
        <button type="button" className="button button--small" onClick={() => void refetch()}>
          Retry
        </button>
      </div>
    );
  }

  const update = (index: number, patch: Partial<RouteRule>) =>
    setRules((list) => list.map((rule, i) => (i === index ? { ...rule, ...patch } : rule)));
  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    save.mutate(rules);
  };

  return (
    <form onSubmit={onSubmit} className="form" aria-label="Redirect rules">
      {rules.length === 0 ? (
        <p className="muted">
          No redirect rules. Add one to send an old path (or every path under a prefix such as /docs/*) somewhere else.
        </p>
      ) : (
        <table className="table">
          <thead>
            <tr>
              <th scope="col">Source</th>
              <th scope="col">Target</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span className="visually-hidden">Actions</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {rules.map((rule, index) => (
              <tr key={index}>
                <td>
                  <input
                    className="input"
                    aria-label={`Source of rule ${index + 1}`}
                    value={rule.source}
                    placeholder="/old-page or /docs/*"
                    aria-invalid={fieldErrors[`rules.${index}.source`] ? true : undefined}
                    onChange={(event) => update(index, { source: event.target.value })}
                  />
                  {fieldErrors[`rules.${index}.source`] ? (
                    <p className="field__error">{fieldErrors[`rules.${index}.source`].join(' ')}</p>
                  ) : null}
                </td>
                <td>
                  <input
                    className="input"
                    aria-label={`Target of rule ${index + 1}`}
                    value={rule.target}
                    placeholder="/new-page"
                    aria-invalid={fieldErrors[`rules.${index}.target`] ? true : undefined}
                    onChange={(event) => update(index, { target: event.target.value })}
                  />
                  {fieldErrors[`rules.${index}.target`] ? (
                    <p className="field__error">{fieldErrors[`rules.${index}.target`].join(' ')}</p>
                  ) : null}
                </td>
                <td>
                  <select
                    className="input"
                    aria-label={`Status of rule ${index + 1}`}
                    value={rule.status}
                    onChange={(event) => update(index, { status: Number(event.target.value) as RouteRule['status'] })}
                  >
                    {REDIRECT_STATUSES.map((status) => (
                      <option key={status} value={status}>
                        {status}
                      </option>
                    ))}
                  </select>
                </td>
                <td>
                  <button
                    type="button"
                    className="button button--small button--ghost button--danger"
                    onClick={() => setRules((list) => list.filter((_, i) => i !== index))}
                    aria-label={`Remove rule ${index + 1}`}
                  >
                    Remove
                  </button>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <div style={{ display: 'flex', gap: '0.75rem', flexWrap: 'wrap' }}>
        <button type="button" className="button" onClick={() => setRules((list) => [...list, { source: '', target: '', status: 302 }])}>
          Add rule
        </button>
        <button type="submit" className="button button--primary" disabled={save.isPending}>
          {save.isPending ? 'Saving…' : 'Save rules'}
        </button>
      </div>
    </form>
  );
}

export default function AdminSettingsPage() {
  return (
    <>
      <PageHeader title="Settings">
        Site name, registration, announcement, redirect rules, sponsors, privacy policy, catalogue and releases.
      </PageHeader>
      <section className="card" aria-labelledby="rules-title" style={{ marginBottom: '1.5rem' }}>
        <h2 id="rules-title">Redirect rules</h2>
        <p className="muted">
          Checked on every navigation, on the server and in the browser. Exact paths win over prefixes; the longest prefix wins.
        </p>
        <RouteRulesEditor />
      </section>
      <UpcomingSection title="Site settings">
        Site name, registration, announcement, sponsors, privacy policy, catalogue and releases are edited here.
      </UpcomingSection>
    </>
  );
}
