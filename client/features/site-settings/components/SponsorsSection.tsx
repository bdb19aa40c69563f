import { useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import {
  SPONSOR_CURRENCIES,
  SPONSOR_LOGO_MAX_BYTES,
  SPONSOR_LOGO_TYPES,
  SPONSOR_NAME_MAX,
  type SponsorCurrency,
  type SponsorsSettings,
  TIER_DESCRIPTION_MAX,
  TIER_NAME_MAX,
} from '../../../../lib/api/site-settings.js';
import { ApiError } from '../../../app/api-client.js';
import { AppLink } from '../../../components/AppLink.js';
import { Field } from '../../../components/FormField.js';
import { FormAlert } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { siteSettingsSectionQuery, useUploadSponsorLogo } from '../api.js';
import { useSectionDraft } from '../hooks/useSectionDraft.js';
import { useSectionSave } from '../hooks/useSectionSave.js';
import { type SponsorDraft, type TierDraft, toDrafts, toRequest, useSponsorDrafts } from '../hooks/useSponsorDrafts.js';
import { SectionActions, SettingsCard } from './SettingsCard.js';

export function SponsorsSection({ id }: { id: string }) {
  const query = useQuery(siteSettingsSectionQuery('sponsors'));
  return (
    <SettingsCard
      id={id}
      title="Sponsors"
      description={
        <>
          The tiers and the current sponsors of <AppLink to="/sponsor">/sponsor</AppLink>, in the order shown there.
        </>
      }
      query={query}
    >
      {(saved) => <SponsorsForm saved={saved} />}
    </SettingsCard>
  );
}

function SponsorsForm({ saved }: { saved: SponsorsSettings }) {
  const { draft, setDraft, dirty, discard } = useSectionDraft(toDrafts(saved));
  const form = useRef<HTMLFormElement>(null);
  const save = useSectionSave('sponsors', 'Sponsors', form, (stored) => setDraft(toDrafts(stored)));
  const edit = useSponsorDrafts(draft, setDraft);
  const [localErrors, setLocalErrors] = useState<Record<string, string[]>>({});
  const errors = { ...save.errors, ...localErrors };

  useEffect(() => {
    if (edit.lastAdded) document.getElementById(`${edit.lastAdded}-name`)?.focus();
  }, [edit.lastAdded]);

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const { request, errors: refused } = toRequest(draft);
    setLocalErrors(refused);
    if (Object.keys(refused).length) {
      requestAnimationFrame(() => form.current?.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus());
      return;
    }
    save.submit(request);
  };

  return (
    <form ref={form} className="form site-settings__form" aria-label="Sponsors" onSubmit={onSubmit} noValidate>
      <FormAlert error={save.error} />
      <h3 className="site-settings__subhead">Tiers</h3>
      {draft.tiers.length === 0 ? (
        <p className="muted site-settings__empty">No tiers: /sponsor shows only the contact details. Add one to offer sponsorship.</p>
      ) : (
        <ol className="site-settings__list">
          {draft.tiers.map((tier, index) => (
            <TierEditor
              key={tier.id}
              tier={tier}
              index={index}
              count={draft.tiers.length}
              sponsors={draft.sponsors.filter((sponsor) => sponsor.tierId === tier.id).length}
              errorsOf={(field) => errors[`tiers.${index}.${field}`]}
              onChange={(patch) => edit.changeTier(tier.id, patch)}
              onMove={(by) => edit.moveTier(index, by)}
              onRemove={() => edit.removeTier(tier.id)}
            />
          ))}
        </ol>
      )}
      <div>
        <button type="button" className="button" onClick={edit.addTier}>
          Add tier
        </button>
      </div>

      <h3 className="site-settings__subhead">Current sponsors</h3>
      {draft.sponsors.length === 0 ? (
        <p className="muted site-settings__empty">No sponsors yet. /sponsor invites visitors to become the first one.</p>
      ) : (
        <ol className="site-settings__list">
          {draft.sponsors.map((sponsor, index) => (
            <SponsorEditor
              key={sponsor.id}
              sponsor={sponsor}
              index={index}
              count={draft.sponsors.length}
              tiers={draft.tiers}
              errorsOf={(field) => errors[`sponsors.${index}.${field}`]}
              onChange={(patch) => edit.changeSponsor(sponsor.id, patch)}
              onMove={(by) => edit.moveSponsor(index, by)}
              onRemove={() => edit.removeSponsor(sponsor.id)}
            />
          ))}
        </ol>
      )}
      <div>
        <button
          type="button"
          className="button"
          onClick={edit.addSponsor}
          disabled={draft.tiers.length === 0}
          aria-describedby={draft.tiers.length === 0 ? 'sponsors-need-tier' : undefined}
        >
          Add sponsor
        </button>
        {draft.tiers.length === 0 ? (
          <p id="sponsors-need-tier" className="field__hint">
            A sponsor belongs to a tier: add a tier first.
          </p>
        ) : null}
      </div>
      <SectionActions
        dirty={dirty}
        saving={save.saving}
        onDiscard={() => {
          setLocalErrors({});
          discard();
        }}
      />
    </form>
  );
}

function RowTools({
  label,
  index,
  count,
  onMove,
  onRemove,
  removeDisabledReason,
}: {
  label: string;
  index: number;
  count: number;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
  removeDisabledReason?: string;
}) {
  return (
    <div className="site-settings__row-tools">
      {removeDisabledReason ? <span className="site-settings__row-note">{removeDisabledReason}</span> : null}
      <button
        type="button"
        className="button button--small button--ghost"
        onClick={() => onMove(-1)}
        disabled={index === 0}
        aria-label={`Move ${label} up`}
      >
        ↑
      </button>
      <button
        type="button"
        className="button button--small button--ghost"
        onClick={() => onMove(1)}
        disabled={index === count - 1}
        aria-label={`Move ${label} down`}
      >
        ↓
      </button>
      <button
        type="button"
        className="button button--small button--destructive"
        onClick={onRemove}
        disabled={Boolean(removeDisabledReason)}
        title={removeDisabledReason}
        aria-label={`Remove ${label}`}
      >
        Remove
      </button>
    </div>
  );
}

function TierEditor({
  tier,
  index,
  count,
  sponsors,
  errorsOf,
  onChange,
  onMove,
  onRemove,
}: {
  tier: TierDraft;
  index: number;
  count: number;
  sponsors: number;
  errorsOf: (field: string) => string[] | undefined;
  onChange: (patch: Partial<TierDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const label = `tier ${tier.name || index + 1}`;
  return (
    <li className="site-settings__item" aria-label={`Tier ${index + 1}`}>
      <div className="site-settings__grid">
        <Field label="Name" id={`${tier.id}-name`} errors={errorsOf('name')}>
          {(control) => (
            <input
              {...control}
              type="text"
              value={tier.name}
              maxLength={TIER_NAME_MAX}
              onChange={(event) => onChange({ name: event.target.value })}
            />
          )}
        </Field>
        <Field label="Per month" errors={errorsOf('monthlyAmount')}>
          {(control) => (
            <input
              {...control}
              type="text"
              inputMode="decimal"
              value={tier.amount}
              placeholder="25"
              onChange={(event) => onChange({ amount: event.target.value })}
            />
          )}
        </Field>
        <Field label="Currency" errors={errorsOf('currency')}>
          {(control) => (
            <select {...control} value={tier.currency} onChange={(event) => onChange({ currency: event.target.value as SponsorCurrency })}>
              {SPONSOR_CURRENCIES.map((currency) => (
                <option key={currency}>{currency}</option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <Field label="Description" errors={errorsOf('description')}>
        {(control) => (
          <textarea
            {...control}
            rows={2}
            value={tier.description}
            maxLength={TIER_DESCRIPTION_MAX}
            onChange={(event) => onChange({ description: event.target.value })}
          />
        )}
      </Field>
      <Field label="Perks" hint="One per line." errors={errorsOf('perks')}>
        {(control) => <textarea {...control} rows={3} value={tier.perks} onChange={(event) => onChange({ perks: event.target.value })} />}
      </Field>
      <RowTools
        label={label}
        index={index}
        count={count}
        onMove={onMove}
        onRemove={onRemove}
        removeDisabledReason={sponsors ? `Move its ${sponsors} sponsor${sponsors === 1 ? '' : 's'} to another tier first` : undefined}
      />
      {errorsOf('id')?.length ? <p className="field__error">{errorsOf('id')!.join(' ')}</p> : null}
    </li>
  );
}

const initialsOf = (name: string) =>
  name
    .split(/\s+/)
    .filter(Boolean)
    .slice(0, 2)
    .map((word) => word[0]!.toUpperCase())
    .join('') || '?';

function SponsorEditor({
  sponsor,
  index,
  count,
  tiers,
  errorsOf,
  onChange,
  onMove,
  onRemove,
}: {
  sponsor: SponsorDraft;
  index: number;
  count: number;
  tiers: TierDraft[];
  errorsOf: (field: string) => string[] | undefined;
  onChange: (patch: Partial<SponsorDraft>) => void;
  onMove: (by: -1 | 1) => void;
  onRemove: () => void;
}) {
  const upload = useUploadSponsorLogo();
  const toast = useToast();
  const [logoError, setLogoError] = useState<string | null>(null);
  const fileInput = useRef<HTMLInputElement>(null);
  const label = `sponsor ${sponsor.name || index + 1}`;

  const onFile = (file: File | undefined) => {
    if (!file) return;
    setLogoError(null);
    if (!(SPONSOR_LOGO_TYPES as readonly string[]).includes(file.type)) {
      setLogoError('Choose a PNG, JPEG or WebP image (SVG is not accepted).');
      return;
    }
    if (file.size > SPONSOR_LOGO_MAX_BYTES) {
      setLogoError('The logo must be 512 KB or smaller.');
      return;
    }
    upload.mutate(file, {
      onSuccess: ({ logoId, url }) => {
        onChange({ logoId, logoUrl: url });
        toast('Logo uploaded: save the sponsors to publish it', 'info', { key: `logo-${sponsor.id}` });
      },
      onError: (error) =>
        setLogoError(error instanceof ApiError ? (error.fields.logo?.[0] ?? error.message) : 'The upload failed. Try again.'),
    });
    if (fileInput.current) fileInput.current.value = '';
  };

  const logoErrors = [logoError, ...(errorsOf('logoId') ?? [])].filter((message): message is string => Boolean(message));
  return (
    <li className="site-settings__item site-settings__sponsor" aria-label={`Sponsor ${index + 1}`}>
      <div className="site-settings__logo">
        {sponsor.logoUrl ? (
          <img src={sponsor.logoUrl} alt={`Logo of ${sponsor.name || 'this sponsor'}`} width={64} height={64} />
        ) : (
          <span className="site-settings__initials" aria-hidden="true">
            {initialsOf(sponsor.name)}
          </span>
        )}
        <div className="site-settings__logo-tools">
          <label className="button button--small site-settings__upload">
            {upload.isPending ? 'Uploading…' : sponsor.logoId ? 'Replace logo' : 'Upload logo'}
            <input
              ref={fileInput}
              type="file"
              accept={SPONSOR_LOGO_TYPES.join(',')}
              className="visually-hidden"
              aria-label={`Logo of ${label}`}
              disabled={upload.isPending}
              onChange={(event) => onFile(event.target.files?.[0])}
            />
          </label>
          {sponsor.logoId ? (
            <button type="button" className="button button--small button--ghost" onClick={() => onChange({ logoId: null, logoUrl: null })}>
              Remove logo
            </button>
          ) : null}
        </div>
        {logoErrors.length ? (
          <div className="field__error" role="alert">
            {logoErrors.map((message) => (
              <p key={message}>{message}</p>
            ))}
          </div>
        ) : (
          <p className="field__hint">PNG, JPEG or WebP, up to 512 KB.</p>
        )}
      </div>
      <div className="site-settings__grid">
        <Field label="Name" id={`${sponsor.id}-name`} errors={errorsOf('name')}>
          {(control) => (
            <input
              {...control}
              type="text"
              value={sponsor.name}
              maxLength={SPONSOR_NAME_MAX}
              onChange={(event) => onChange({ name: event.target.value })}
            />
          )}
        </Field>
        <Field label="Website" errors={errorsOf('url')}>
          {(control) => (
            <input
              {...control}
              type="url"
              value={sponsor.url}
              placeholder="https://example.com"
              onChange={(event) => onChange({ url: event.target.value })}
            />
          )}
        </Field>
        <Field label="Tier" errors={errorsOf('tierId')}>
          {(control) => (
            <select {...control} value={sponsor.tierId} onChange={(event) => onChange({ tierId: event.target.value })}>
              {tiers.some((tier) => tier.id === sponsor.tierId) ? null : <option value={sponsor.tierId}>Choose a tier</option>}
              {tiers.map((tier) => (
                <option key={tier.id} value={tier.id}>
                  {tier.name || 'Unnamed tier'}
                </option>
              ))}
            </select>
          )}
        </Field>
      </div>
      <RowTools label={label} index={index} count={count} onMove={onMove} onRemove={onRemove} />
    </li>
  );
}
