import { type ChangeEvent, type ReactNode, useId } from 'react';
import { AVATAR_CONTENT_TYPES, AVATAR_FIELD, type ProfileResponse } from '../../../../lib/api/profile.js';
import { FormAlert, fieldErrors } from '../../../components/FormAlert.js';
import { useToast } from '../../../components/Toaster.js';
import { useRemoveAvatar, useUploadAvatar } from '../api.js';
import '../profile.css';

export function AvatarForm({ profile }: { profile: ProfileResponse }) {
  const toast = useToast();
  const upload = useUploadAvatar();
  const remove = useRemoveAvatar();

  const onChange = (event: ChangeEvent<HTMLInputElement>) => {
    const input = event.currentTarget;
    const file = input.files?.[0];
    if (!file) return;
    remove.reset();
    upload.mutate(file, {
      onSuccess: () => toast('Avatar updated', 'success', { key: 'avatar' }),
      // The same file can be chosen again after a failure, or after removing it.
      onSettled: () => {
        input.value = '';
      },
    });
  };
  const onRemove = () => {
    upload.reset();
    remove.mutate(undefined, { onSuccess: () => toast('Avatar removed', 'success', { key: 'avatar' }) });
  };

  return (
    <section aria-labelledby="avatar-title" className="form">
      <h2 id="avatar-title">Avatar</h2>
      <FormAlert error={upload.error ?? remove.error} />
      <div className="profile-avatar">
        {profile.avatarUrl ? (
          <img className="profile-avatar__image" src={profile.avatarUrl} alt="Your avatar" width={64} height={64} />
        ) : (
          <span className="avatar profile-avatar__initial" aria-hidden="true">
            {profile.name.slice(0, 1).toUpperCase()}
          </span>
        )}
        <AvatarPicker pending={upload.isPending} errors={fieldErrors(upload.error)[AVATAR_FIELD]} onChange={onChange}>
          {profile.avatarUrl ? (
            <button type="button" className="button button--ghost button--danger" onClick={onRemove} disabled={remove.isPending}>
              {remove.isPending ? 'Removing…' : 'Remove'}
            </button>
          ) : null}
        </AvatarPicker>
      </div>
    </section>
  );
}

/**
 * The file input, drawn as one of our buttons: the native input stays in the page (visually hidden,
 * so it keeps its keyboard behaviour, its label and the browser's file dialog) and the label is
 * what is seen, with the focus ring of the input it stands for. Hint and errors are linked to it.
 */
function AvatarPicker({
  pending,
  errors,
  onChange,
  children,
}: {
  pending: boolean;
  errors?: readonly string[];
  onChange: (event: ChangeEvent<HTMLInputElement>) => void;
  /** Actions shown beside the picker ("Remove"). */
  children?: ReactNode;
}) {
  const id = useId();
  const hintId = `${id}-hint`;
  const errorId = `${id}-error`;
  return (
    <div className="avatar-picker">
      <input
        id={id}
        className="visually-hidden avatar-picker__input"
        type="file"
        name={AVATAR_FIELD}
        accept={AVATAR_CONTENT_TYPES.join(',')}
        disabled={pending}
        aria-invalid={errors?.length ? true : undefined}
        aria-describedby={errors?.length ? `${hintId} ${errorId}` : hintId}
        onChange={onChange}
      />
      <div className="avatar-picker__actions">
        <label htmlFor={id} className="button avatar-picker__button">
          {pending ? 'Uploading…' : 'Upload an image'}
        </label>
        {children}
      </div>
      <p className="field__hint" id={hintId}>
        PNG, JPEG or WebP, up to 1 MB.
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
