import type { DecodedLinker } from '../../../../lib/tools/linker/linker.js';
import { CopyButton } from './CopyButton.js';
import { VerificationResult } from './VerificationResult.js';
import '../linker.css';

const SOURCES: Record<DecodedLinker['source'], string> = {
  value: 'the value itself',
  query: 'the URL query string',
  fragment: 'the URL fragment',
};

/** Version, fingerprint, warnings and one row per cookie with what it becomes on the receiving site. */
export function DecodeResult({ result }: { result: DecodedLinker }) {
  return (
    <section className="linker-result" aria-label="Decoded link">
      <dl className="linker-facts">
        <div>
          <dt>Version</dt>
          <dd>
            <code>{result.version}</code>
          </dd>
        </div>
        <div>
          <dt>Fingerprint</dt>
          <dd>
            <code data-testid="linker-fingerprint">{result.fingerprint || '(empty)'}</code>
          </dd>
        </div>
        <div>
          <dt>Found in</dt>
          <dd>{SOURCES[result.source]}</dd>
        </div>
        <div>
          <dt>Cookies</dt>
          <dd>{result.cookies.length}</dd>
        </div>
      </dl>
      {result.verification ? <VerificationResult verification={result.verification} /> : null}
      {result.warnings.length ? (
        <div className="alert linker-warnings" role="note">
          <strong>Worth knowing</strong>
          <ul>
            {result.warnings.map((warning) => (
              <li key={warning}>{warning}</li>
            ))}
          </ul>
        </div>
      ) : null}
      {result.cookies.length === 0 ? (
        <p className="muted">This link carries no cookies: only the version and the fingerprint.</p>
      ) : (
        <div className="linker-table-wrap">
          <table className="table linker-table">
            <caption className="visually-hidden">Cookies carried by the link</caption>
            <thead>
              <tr>
                <th scope="col">Key</th>
                <th scope="col">Value in the link</th>
                <th scope="col">Cookie on the receiving site</th>
                <th scope="col">Details</th>
              </tr>
            </thead>
            <tbody>
              {result.cookies.map((cookie, index) => (
                <tr key={`${cookie.key}-${index}`} data-testid="linker-cookie">
                  <th scope="row">
                    <code>{cookie.key}</code> <span className="linker-table__label">{cookie.label}</span>
                  </th>
                  <td data-label="Value in the link" className="linker-table__link">
                    <div className="linker-value">
                      <code>{cookie.value || '(empty)'}</code>
                      <CopyButton value={cookie.value} label={`${cookie.key} value`} />
                    </div>
                    <span className="linker-table__raw" title="Base64 as it stands in the link">
                      {cookie.rawValue}
                    </span>
                  </td>
                  <td data-label="Cookie on the receiving site" className="linker-table__cookie">
                    <div className="linker-value">
                      <code>
                        {cookie.cookieName}={cookie.cookieValue}
                      </code>
                      <CopyButton value={cookie.cookieValue} label={`${cookie.cookieName} cookie value`} />
                    </div>
                  </td>
                  <td data-label="Details">
                    {cookie.details.length ? (
                      <dl className="linker-details">
                        {cookie.details.map((detail) => (
                          <div key={detail.label}>
                            <dt>{detail.label}</dt>
                            <dd>{detail.value}</dd>
                          </div>
                        ))}
                      </dl>
                    ) : (
                      <span className="muted">—</span>
                    )}
                    {cookie.warnings.map((warning) => (
                      <p key={warning} className="linker-table__warning">
                        {warning}
                      </p>
                    ))}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
