import { REDIRECT_STATUSES, type RedirectStatus, type RouteRule } from '../../../../lib/api/route-rules.js';
import type { RuleDraft } from '../hooks/useRuleDrafts.js';
import { RuleErrors } from './RuleErrors.js';
import '../route-rules.css';

interface Props {
  rule: RuleDraft;
  /** 1-based, as the admin counts. */
  position: number;
  /** Prefix of the ids of this row's controls. */
  idPrefix: string;
  errorsOf: (field: keyof RouteRule) => readonly string[] | undefined;
  onChange: (patch: Partial<RouteRule>) => void;
  onRemove: () => void;
}

const invalid = (errors: readonly string[] | undefined) => (errors?.length ? true : undefined);

/** One rule: its controls, each with the messages about it right below. */
export function RouteRuleRow({ rule, position, idPrefix, errorsOf, onChange, onRemove }: Props) {
  const errors = { source: errorsOf('source'), target: errorsOf('target'), status: errorsOf('status') };
  const errorId = (field: keyof RouteRule) => (errors[field]?.length ? `${idPrefix}-${field}-error` : undefined);
  return (
    <tr className="route-rules__row">
      <td data-label="Source">
        <input
          id={`${idPrefix}-source`}
          className="input"
          aria-label={`Source of rule ${position}`}
          value={rule.source}
          placeholder="/old-page or /docs/*"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={invalid(errors.source)}
          aria-describedby={errorId('source')}
          onChange={(event) => onChange({ source: event.target.value })}
        />
        <RuleErrors id={`${idPrefix}-source-error`} messages={errors.source} />
      </td>
      <td data-label="Target">
        <input
          id={`${idPrefix}-target`}
          className="input"
          aria-label={`Target of rule ${position}`}
          value={rule.target}
          placeholder="/new-page"
          autoComplete="off"
          spellCheck={false}
          aria-invalid={invalid(errors.target)}
          aria-describedby={errorId('target')}
          onChange={(event) => onChange({ target: event.target.value })}
        />
        <RuleErrors id={`${idPrefix}-target-error`} messages={errors.target} />
      </td>
      <td data-label="Status">
        <select
          id={`${idPrefix}-status`}
          className="input route-rules__status"
          aria-label={`Status of rule ${position}`}
          value={rule.status}
          aria-invalid={invalid(errors.status)}
          aria-describedby={errorId('status')}
          onChange={(event) => onChange({ status: Number(event.target.value) as RedirectStatus })}
        >
          {REDIRECT_STATUSES.map((status) => (
            <option key={status} value={status}>
              {status}
            </option>
          ))}
        </select>
        <RuleErrors id={`${idPrefix}-status-error`} messages={errors.status} />
      </td>
      <td className="route-rules__remove">
        <button
          id={`${idPrefix}-remove`}
          type="button"
          className="button button--small button--ghost button--danger"
          aria-label={`Remove rule ${position}`}
          onClick={onRemove}
        >
          Remove
        </button>
      </td>
    </tr>
  );
}
