import { useId, useState } from 'react';
import { type Body, fieldDomId, type FieldChecks, isObject, normaliseEmail, normalisePhone, sha256Hex, withKey } from '../draft.js';
import { FieldMessages } from './FieldMessages.js';
import '../ga4mp.css';

interface Props {
  body: Body;
  onChange: (body: Body) => void;
  checks: FieldChecks;
}

const KINDS = [
  { key: 'sha256_email_address', label: 'E-mail address', type: 'email', normalise: normaliseEmail, placeholder: 'jane.doe@example.com' },
  { key: 'sha256_phone_number', label: 'Phone number', type: 'tel', normalise: normalisePhone, placeholder: '+1 650 555 1234' },
] as const;

/**
 * user_data for user-provided data collection: the value typed here is normalised and SHA-256
 * hashed in the browser; only the digest goes into the payload (and so to the server and history).
 */
export function UserDataEditor({ body, onChange, checks }: Props) {
  const { messagesFor } = checks;
  const id = useId();
  const [plain, setPlain] = useState<Record<string, string>>({});
  const userData = isObject(body.user_data) ? body.user_data : {};
  const setUserData = (next: Record<string, unknown>) => onChange(withKey(body, 'user_data', Object.keys(next).length ? next : undefined));
  const hashes = (key: string): string[] => {
    const value = userData[key];
    return Array.isArray(value) ? value.map(String) : typeof value === 'string' ? [value] : [];
  };
  const add = async (kind: (typeof KINDS)[number]) => {
    const normalised = kind.normalise(plain[kind.key] ?? '');
    if (!normalised) return;
    const digest = await sha256Hex(normalised);
    checks.touch(`user_data.${kind.key}`);
    setUserData(withKey(userData, kind.key, [...hashes(kind.key), digest]));
    setPlain((values) => ({ ...values, [kind.key]: '' }));
  };
  return (
    <section className="ga4mp-section" aria-labelledby={`${id}-title`} id={fieldDomId('user_data')} tabIndex={-1}>
      <h2 id={`${id}-title`}>User-provided data</h2>
      <p className="muted ga4mp-note">
        Typed values are normalised and SHA-256 hashed in your browser; only the hash is added. Addresses: edit user_data.address in the raw
        JSON.
      </p>
      <FieldMessages id={`${id}-messages`} messages={messagesFor('user_data')} />
      <div className="ga4mp-grid">
        {KINDS.map((kind) => {
          const list = hashes(kind.key);
          const messages = messagesFor(`user_data.${kind.key}`);
          return (
            <div className="field" key={kind.key}>
              <label htmlFor={fieldDomId(`user_data.${kind.key}`)}>{kind.label}</label>
              <form
                className="ga4mp-inline"
                onSubmit={(event) => {
                  event.preventDefault();
                  void add(kind);
                }}
              >
                <input
                  id={fieldDomId(`user_data.${kind.key}`)}
                  className="input"
                  type={kind.type}
                  autoComplete="off"
                  placeholder={kind.placeholder}
                  value={plain[kind.key] ?? ''}
                  aria-describedby={`${id}-${kind.key}-hint`}
                  onChange={(event) => setPlain((values) => ({ ...values, [kind.key]: event.target.value }))}
                />
                <button type="submit" className="button button--small">
                  Hash and add
                </button>
              </form>
              <p className="field__hint" id={`${id}-${kind.key}-hint`}>
                {kind.key}: {list.length} value{list.length === 1 ? '' : 's'} (at most 10)
              </p>
              {list.length ? (
                <ul className="ga4mp-hashes">
                  {list.map((hash, index) => (
                    <li key={`${hash}-${index}`}>
                      <code>{hash.length > 20 ? `${hash.slice(0, 12)}…${hash.slice(-6)}` : hash}</code>
                      <button
                        type="button"
                        className="button button--ghost button--small"
                        aria-label={`Remove ${kind.label.toLowerCase()} hash ${index + 1}`}
                        onClick={() => {
                          checks.touch(`user_data.${kind.key}`);
                          const rest = list.filter((_, at) => at !== index);
                          setUserData(withKey(userData, kind.key, rest.length ? rest : undefined));
                        }}
                      >
                        ×
                      </button>
                    </li>
                  ))}
                </ul>
              ) : null}
              <FieldMessages
                id={`${id}-${kind.key}-messages`}
                messages={[...messages, ...list.flatMap((_, index) => messagesFor(`user_data.${kind.key}[${index}]`))]}
              />
            </div>
          );
        })}
      </div>
    </section>
  );
}
