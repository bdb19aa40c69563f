import type { Verification } from '../../../../lib/tools/linker/fingerprint.js';
import { formatDateTime } from '../../../../lib/format/date.js';
import '../linker.css';

const TITLES: Record<Verification['status'], string> = {
  valid: 'Valid',
  expired: 'Expired',
  future: 'Not valid yet',
  mismatch: 'No match',
};

const formatTime = (iso: string) => formatDateTime(iso, { seconds: true });

/** Whether gtag.js on the receiving page would accept the link, and by how many minutes. */
export function VerificationResult({ verification }: { verification: Verification }) {
  return (
    <div className={`linker-verdict linker-verdict--${verification.status}`} role="status" data-testid="linker-verdict">
      <p className="linker-verdict__title">
        <span className="linker-verdict__badge">{TITLES[verification.status]}</span> <span>{verification.message}</span>
      </p>
      {verification.status !== 'mismatch' ? (
        <dl className="linker-facts">
          <div>
            <dt>Made in the minute starting</dt>
            <dd>{formatTime(verification.generatedAt)}</dd>
          </div>
          {'expiresAt' in verification ? (
            <div>
              <dt>{verification.status === 'valid' ? 'Accepted until' : 'No longer accepted from'}</dt>
              <dd>{formatTime(verification.expiresAt)}</dd>
            </div>
          ) : null}
          <div>
            <dt>Minute index</dt>
            <dd>
              <code>{verification.generatedMinute}</code>
            </dd>
          </div>
        </dl>
      ) : null}
    </div>
  );
}
