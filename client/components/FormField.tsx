import { type InputHTMLAttributes, type ReactNode, useId } from 'react';

export interface FieldControlProps {
  id: string;
  'aria-invalid': true | undefined;
  'aria-describedby': string | undefined;
}

interface FieldProps {
  label: string;
  errors?: readonly string[];
  hint?: ReactNode;
  id?: string;
  className?: string;
  /** Renders the control (input, select, textarea…) with the id and ARIA links it needs. */
  children: (control: FieldControlProps) => ReactNode;
}

/**
 * A labelled control with its hint and its errors, linked by aria-describedby and announced when
 * they appear. Each message is a line of its own: two rules broken at once read as two sentences.
 */
export function Field({ label, errors, hint, id, className, children }: FieldProps) {
  const generated = useId();
  const controlId = id ?? generated;
  const hintId = hint ? `${controlId}-hint` : undefined;
  const errorId = errors?.length ? `${controlId}-error` : undefined;
  return (
    <div className={className ? `field ${className}` : 'field'}>
      <label htmlFor={controlId}>{label}</label>
      {children({
        id: controlId,
        'aria-invalid': errors?.length ? true : undefined,
        'aria-describedby': [hintId, errorId].filter(Boolean).join(' ') || undefined,
      })}
      {hint ? (
        <p className="field__hint" id={hintId}>
          {hint}
        </p>
      ) : null}
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

interface FormFieldProps extends InputHTMLAttributes<HTMLInputElement> {
  label: string;
  errors?: readonly string[];
  hint?: ReactNode;
}

/** A labelled text-like input (`Field` with an `<input>`). */
export function FormField({ label, errors, hint, id, className, type = 'text', ...input }: FormFieldProps) {
  return (
    <Field label={label} errors={errors} hint={hint} id={id} className={className}>
      {(control) => <input type={type} {...control} {...input} />}
    </Field>
  );
}
