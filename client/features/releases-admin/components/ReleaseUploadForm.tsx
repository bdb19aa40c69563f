import { type ChangeEvent, type FormEvent, useId, useRef, useState } from 'react';
import {
  RELEASE_CHANNELS,
  RELEASE_FILENAME,
  RELEASE_MAX_BYTES,
  RELEASE_NOTES_MAX_LENGTH,
  type ReleaseArch,
  type ReleasePlatform,
  type UploadReleaseFields,
} from '../../../../lib/api/releases.js';
import { PRODUCT_SLUGS, type ProductSlug } from '../../../../lib/product.js';
import { isSemver } from '../../../../lib/releases/semver.js';
import { archesOf, platformsOf } from '../../../../lib/releases/targets.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { Field, FormField } from '../../../components/FormField.js';
import { useToast } from '../../../components/Toaster.js';
import { UploadCancelled, useUploadRelease } from '../api.js';
import { formatBytes } from '../../../../lib/format/bytes.js';
import { ARCH_LABELS, PLATFORM_LABELS } from '../../../../lib/releases/labels.js';
import { productName } from '../format.js';

type Fields = Omit<UploadReleaseFields, 'size'>;
type Errors = Record<string, string[]>;
type Target = Pick<Fields, 'product' | 'platform' | 'arch'>;

/**
 * A product, platform and arch the product ships on (lib/releases/targets.ts, the table the API
 * checks too): what was asked where it is valid, else the first valid choice.
 */
function validTarget(product: ProductSlug, platform?: ReleasePlatform, arch?: ReleaseArch): Target {
  const platforms = platformsOf(product);
  const chosenPlatform = platform && platforms.includes(platform) ? platform : platforms[0]!;
  const arches = archesOf(product, chosenPlatform);
  return { product, platform: chosenPlatform, arch: arch && arches.includes(arch) ? arch : arches[0]! };
}

function readFields(form: HTMLFormElement): Fields {
  const data = new FormData(form);
  const text = (name: string) => String(data.get(name) ?? '').trim();
  return {
    product: text('product') as Fields['product'],
    platform: text('platform') as Fields['platform'],
    arch: text('arch') as Fields['arch'],
    channel: text('channel') as Fields['channel'],
    version: text('version'),
    notes: text('notes') || undefined,
  };
}

/** What the server would refuse, said before a byte is sent. */
function validate(fields: Fields, file: File | null): Errors {
  const errors: Errors = {};
  if (!isSemver(fields.version)) errors.version = ['Enter a semantic version, such as 1.4.0 or 2.0.0-beta.1.'];
  if ((fields.notes?.length ?? 0) > RELEASE_NOTES_MAX_LENGTH)
    errors.notes = [`Notes can be at most ${RELEASE_NOTES_MAX_LENGTH} characters.`];
  if (!file) errors.file = ['Choose the build to upload.'];
  else if (file.size === 0) errors.file = ['The file is empty.'];
  else if (file.size > RELEASE_MAX_BYTES) errors.file = [`A build can be at most ${formatBytes(RELEASE_MAX_BYTES)}.`];
  else if (!RELEASE_FILENAME.test(file.name) || file.name.includes('..'))
    errors.file = ['Rename the file: letters, digits and . _ + - only, starting with a letter or digit.'];
  return errors;
}

export function ReleaseUploadForm() {
  const toast = useToast();
  const upload = useUploadRelease();
  const [file, setFile] = useState<File | null>(null);
  const [target, setTarget] = useState<Target>(() => validTarget(PRODUCT_SLUGS[0]!));
  const [clientErrors, setClientErrors] = useState<Errors>({});
  const [progress, setProgress] = useState<{ loaded: number; total: number } | null>(null);
  const abortRef = useRef<AbortController | null>(null);
  const fileInputRef = useRef<HTMLInputElement>(null);
  const pending = upload.isPending;
  // A cancelled upload is not an error to show.
  const serverError = upload.error instanceof UploadCancelled ? null : upload.error;
  const server = fieldErrors(serverError);
  const errors: Errors = { ...server, ...clientErrors };
  if (server.size && !errors.file) errors.file = server.size;

  const onFile = (event: ChangeEvent<HTMLInputElement>) => {
    setFile(event.currentTarget.files?.[0] ?? null);
    setClientErrors(({ file: _dropped, ...rest }) => rest);
  };

  const onSubmit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    const form = event.currentTarget;
    const fields = readFields(form);
    const found = validate(fields, file);
    setClientErrors(found);
    upload.reset();
    if (Object.keys(found).length || !file) return;
    const controller = new AbortController();
    abortRef.current = controller;
    setProgress({ loaded: 0, total: file.size });
    upload.mutate(
      { fields, file, signal: controller.signal, onProgress: (loaded, total) => setProgress({ loaded, total }) },
      {
        onSuccess: (release) => {
          toast(`${productName(release.product)} ${release.version} is published`, 'success', { key: 'release-upload' });
          form.reset();
          setFile(null);
          if (fileInputRef.current) fileInputRef.current.value = '';
        },
        onError: (error) => {
          if (error instanceof UploadCancelled) toast('Upload cancelled', 'info', { key: 'release-upload' });
          else toast('The upload failed', 'error', { key: 'release-upload' });
        },
        onSettled: () => {
          abortRef.current = null;
          setProgress(null);
        },
      },
    );
  };

  const percent = progress && progress.total > 0 ? Math.round((progress.loaded / progress.total) * 100) : 0;

  return (
    <form className="releases-admin__form" onSubmit={onSubmit} noValidate aria-labelledby="releases-upload-title">
      <h3 id="releases-upload-title">Upload a release</h3>
      <FormAlert error={serverError} />
      <fieldset className="releases-admin__grid" disabled={pending}>
        <legend className="visually-hidden">Build</legend>
        <SelectField
          label="Product"
          name="product"
          options={PRODUCT_SLUGS}
          labels={productName}
          value={target.product}
          onChange={(product) => setTarget((current) => validTarget(product, current.platform, current.arch))}
          errors={errors.product}
        />
        <SelectField
          label="Platform"
          name="platform"
          options={platformsOf(target.product)}
          labels={(value) => PLATFORM_LABELS[value]}
          value={target.platform}
          onChange={(platform) => setTarget((current) => validTarget(current.product, platform, current.arch))}
          errors={errors.platform}
        />
        <SelectField
          label="Architecture"
          name="arch"
          options={archesOf(target.product, target.platform)}
          labels={(value) => ARCH_LABELS[value]}
          value={target.arch}
          onChange={(arch) => setTarget((current) => validTarget(current.product, current.platform, arch))}
          errors={errors.arch}
        />
        <SelectField label="Channel" name="channel" options={RELEASE_CHANNELS} labels={(value) => value} errors={errors.channel} />
        <FormField
          label="Version"
          name="version"
          placeholder="1.4.0"
          autoComplete="off"
          spellCheck={false}
          hint="Semantic version: 1.4.0, 2.0.0-beta.1"
          errors={errors.version}
        />
      </fieldset>
      <fieldset className="releases-admin__fieldset" disabled={pending}>
        <legend className="visually-hidden">Notes and file</legend>
        <Field label="Release notes" hint="Markdown, optional." errors={errors.notes}>
          {(control) => <textarea {...control} name="notes" rows={4} maxLength={RELEASE_NOTES_MAX_LENGTH} />}
        </Field>
        <FilePicker inputRef={fileInputRef} file={file} errors={errors.file} onChange={onFile} />
      </fieldset>
      {progress ? (
        <div className="releases-admin__progress">
          <label htmlFor="releases-upload-progress" className="releases-admin__progress-label">
            Uploading {file?.name}: {percent}% ({formatBytes(progress.loaded)} of {formatBytes(progress.total)})
          </label>
          <progress id="releases-upload-progress" className="releases-admin__progress-bar" max={100} value={percent} />
        </div>
      ) : null}
      <div className="releases-admin__actions">
        <button type="submit" className="button button--primary" disabled={pending}>
          {pending ? 'Uploading…' : 'Upload'}
        </button>
        {pending ? (
          <button type="button" className="button button--ghost" onClick={() => abortRef.current?.abort()}>
            Cancel upload
          </button>
        ) : null}
      </div>
    </form>
  );
}

/** A select of `options`; controlled when `value` and `onChange` are given. */
function SelectField<Value extends string>({
  label,
  name,
  options,
  labels,
  value,
  onChange,
  errors,
}: {
  label: string;
  name: string;
  options: readonly Value[];
  labels: (value: Value) => string;
  value?: Value;
  onChange?: (value: Value) => void;
  errors?: readonly string[];
}) {
  const selection = onChange
    ? { value, onChange: (event: ChangeEvent<HTMLSelectElement>) => onChange(event.currentTarget.value as Value) }
    : { defaultValue: options[0] };
  return (
    <Field label={label} errors={errors}>
      {(control) => (
        <select {...control} name={name} {...selection}>
          {options.map((value) => (
            <option key={value} value={value}>
              {labels(value)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

/**
 * The file input drawn as one of our buttons (as the avatar picker): the native input stays in the
 * page, visually hidden, so it keeps its keyboard behaviour, label and dialog; the label is what is seen.
 */
function FilePicker({
  inputRef,
  file,
  errors,
  onChange,
}: {
  inputRef: React.RefObject<HTMLInputElement | null>;
  file: File | null;
  errors?: readonly string[];
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="release-file">
      <span className="release-file__title">Build file</span>
      <input
        ref={inputRef}
        id={id}
        className="visually-hidden release-file__input"
        type="file"
        name="file"
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${hintId} ${errorId}` : hintId}
        onChange={onChange}
      />
      <div className="release-file__row">
        <label htmlFor={id} className="button release-file__button">
          {file ? 'Choose another file' : 'Choose a file'}
        </label>
        <span className="release-file__name">{file ? `${file.name} · ${formatBytes(file.size)}` : 'No file chosen'}</span>
      </div>
      <p className="field__hint" id={hintId}>
        Up to {formatBytes(RELEASE_MAX_BYTES)}; a plain file name (letters, digits and . _ + -).
      </p>
      {errors?.length ? (
        <div className="field__error" id={errorId} role="alert">
          {errors.map((message) => (
            <p key={message}>{message}</p>
          ))}
        </div>
      ) : null}
    </div>
  );
}
