// The building blocks every page of both apps uses, so a form, an error or a copy button looks and
// behaves the same everywhere (labels tied to inputs, visible focus, errors announced).
import type { ButtonHTMLAttributes, ComponentChildren, PartialInputHTMLAttributes, PartialSelectHTMLAttributes, TextareaHTMLAttributes } from 'preact';
import { useId, useState } from 'preact/hooks';
import { describeError } from './errors';

export function ErrorNotice({ error, onRetry }: { error: unknown; onRetry?: () => void }) {
  if (!error) return null;
  const { title, detail } = describeError(error);
  return (
    <div class="notice notice-error" role="alert">
      <strong>{title}</strong>
      <p>{detail}</p>
      {onRetry && <button type="button" class="button" onClick={onRetry}>Try again</button>}
    </div>
  );
}

export function Notice({ kind = 'info', children }: { kind?: 'info' | 'success' | 'warning'; children: ComponentChildren }) {
  return <div class={`notice notice-${kind}`} role={kind === 'warning' ? 'alert' : 'status'}>{children}</div>;
}

export function Loading({ label = 'Loading' }: { label?: string }) {
  return <p class="loading" role="status" aria-live="polite">{label}…</p>;
}

type FieldProps = {
  label: string;
  hint?: string;
  error?: string;
} & Omit<PartialInputHTMLAttributes<HTMLInputElement>, 'id'>;

/**
 * A labelled input with its hint and error tied to it for screen readers. (Preact's input types are a
 * union per `type`; the attributes are passed through as given, hence the widening spreads below.)
 */
export function TextField({ label, hint, error, ...input }: FieldProps) {
  const id = useId();
  const described = [hint ? `${id}-hint` : '', error ? `${id}-error` : ''].filter(Boolean).join(' ') || undefined;
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <input id={id} aria-describedby={described} aria-invalid={error ? true : undefined} {...(input as object)} />
      {hint && <p class="hint" id={`${id}-hint`}>{hint}</p>}
      {error && <p class="field-error" id={`${id}-error`}>{error}</p>}
    </div>
  );
}

export function TextArea({ label, hint, ...input }: { label: string; hint?: string } & Omit<TextareaHTMLAttributes<HTMLTextAreaElement>, 'id'>) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <textarea id={id} aria-describedby={hint ? `${id}-hint` : undefined} {...input} />
      {hint && <p class="hint" id={`${id}-hint`}>{hint}</p>}
    </div>
  );
}

export function SelectField({ label, options, ...select }: { label: string; options: ReadonlyArray<{ value: string; label: string }> } & Omit<PartialSelectHTMLAttributes<HTMLSelectElement>, 'id'>) {
  const id = useId();
  return (
    <div class="field">
      <label for={id}>{label}</label>
      <select id={id} {...(select as object)}>
        {options.map((option) => <option key={option.value} value={option.value}>{option.label}</option>)}
      </select>
    </div>
  );
}

/** Copies `value` to the clipboard and says so (the announcement is read out by screen readers). */
export function CopyButton({ value, label = 'Copy' }: { value: string; label?: string }) {
  const [copied, setCopied] = useState(false);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(value);
      setCopied(true);
      setTimeout(() => setCopied(false), 2000);
    } catch {
      // No clipboard permission (an insecure origin): the value stays selectable on the page.
      setCopied(false);
    }
  };
  return (
    <button type="button" class="button button-small" onClick={copy} aria-label={`${label}: ${value.length > 24 ? `${value.slice(0, 12)}…` : value}`}>
      {copied ? 'Copied' : label}
      <span class="visually-hidden" aria-live="polite">{copied ? ' copied to the clipboard' : ''}</span>
    </button>
  );
}

/** A button that is off for this key, with the reason shown beside it (a disabled button alone explains nothing). */
export function GuardedButton({ allowed, reason, children, ...button }: { allowed: boolean; reason: string; children: ComponentChildren } & ButtonHTMLAttributes<HTMLButtonElement>) {
  const id = useId();
  if (allowed) return <button type="button" class="button" {...button}>{children}</button>;
  return (
    <span class="guarded">
      <button type="button" class="button" disabled aria-describedby={id}>{children}</button>
      <span class="hint" id={id}>{reason}</span>
    </span>
  );
}

export function ProgressBar({ value, max, label }: { value: number; max: number; label: string }) {
  const percent = max > 0 ? Math.min(100, (value / max) * 100) : 0;
  return (
    <div class="progress">
      <progress value={value} max={max} aria-label={label} />
      <span>{percent.toFixed(percent < 10 ? 1 : 0)}%</span>
    </div>
  );
}

export function PageHeader({ title, children }: { title: string; children?: ComponentChildren }) {
  return (
    <header class="page-header">
      <h1 tabIndex={-1}>{title}</h1>
      {children && <div class="page-actions">{children}</div>}
    </header>
  );
}
