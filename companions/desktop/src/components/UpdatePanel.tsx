import { useState } from 'react';
import type { UpdateCheckResponse } from '../../../../lib/api/releases.js';
import { backend, type VerifiedUpdate } from '../backend.js';
import { useDesktop } from '../state/desktop-context.js';
import { checkForUpdate, downloadUpdate } from '../updates.js';

type Step =
  | { kind: 'idle' }
  | { kind: 'checking' }
  | { kind: 'checked'; answer: UpdateCheckResponse }
  | { kind: 'downloading'; version: string }
  | { kind: 'verified'; update: VerifiedUpdate }
  | { kind: 'failed'; message: string };

/** Check, download, verify (SHA-256 and signature), and only then offer to install. */
export function UpdatePanel() {
  const { info, settings, licence } = useDesktop();
  const [step, setStep] = useState<Step>({ kind: 'idle' });
  const key = licence.state && 'key' in licence.state ? licence.state.key : null;

  const check = async () => {
    setStep({ kind: 'checking' });
    try {
      setStep({ kind: 'checked', answer: await checkForUpdate(info, settings, key) });
    } catch (error) {
      setStep({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  };
  const download = async (latest: NonNullable<UpdateCheckResponse['latest']>) => {
    setStep({ kind: 'downloading', version: latest.version });
    try {
      setStep({ kind: 'verified', update: await downloadUpdate(latest, info, settings.siteUrl, key) });
    } catch (error) {
      setStep({ kind: 'failed', message: error instanceof Error ? error.message : String(error) });
    }
  };

  return (
    <section className="card desk-card" aria-labelledby="updates-heading" data-testid="updates">
      <h2 id="updates-heading">Updates</h2>
      {step.kind === 'checked' && step.answer.updateAvailable && step.answer.latest ? (
        <div className="desk-update">
          <p>
            <strong>Version {step.answer.latest.version}</strong> is available (you have {info.version}).
          </p>
          {step.answer.latest.notes ? <pre className="desk-notes">{step.answer.latest.notes}</pre> : null}
          {step.answer.entitled === false ? (
            <p className="muted">Your licence does not include this download; the free downloads of the site may.</p>
          ) : null}
          <button type="button" className="button button--primary" onClick={() => void download(step.answer.latest!)}>
            Download and verify
          </button>
        </div>
      ) : step.kind === 'checked' ? (
        <p role="status">You have the latest version ({info.version}).</p>
      ) : step.kind === 'downloading' ? (
        <p role="status">Downloading and verifying {step.version}…</p>
      ) : step.kind === 'verified' ? (
        <div className="desk-update" role="status">
          <p>
            Version {step.update.version} is downloaded and verified: SHA-256 <code>{step.update.sha256.slice(0, 16)}…</code>, signed with
            the site’s key <code>{step.update.kid}</code>.
          </p>
          <button
            type="button"
            className="button button--primary"
            onClick={() =>
              void backend.updateInstall(step.update.path).catch((error: Error) => setStep({ kind: 'failed', message: error.message }))
            }
          >
            Install
          </button>
        </div>
      ) : step.kind === 'failed' ? (
        <div className="alert alert--error" role="alert">
          {step.message}
        </div>
      ) : (
        <p className="muted">Updates come from {settings.siteUrl}, and are installed only when their checksum and signature verify.</p>
      )}
      {step.kind !== 'downloading' && step.kind !== 'verified' ? (
        <button type="button" className="button" disabled={step.kind === 'checking'} onClick={() => void check()}>
          {step.kind === 'checking' ? 'Checking…' : 'Check for updates'}
        </button>
      ) : null}
    </section>
  );
}
