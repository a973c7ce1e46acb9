// The fields an application is created and edited with, in one place for both forms. The service
// validates them; its word on a field (the signing keys above all) is shown under that field.
import type { applicationResponse } from '../../shared/contract/applications';
import { ApiError, type Wire } from '../common/api';
import { SelectField, TextArea, TextField } from '../common/components';

type Application = Wire<typeof applicationResponse>;

export interface ApplicationFieldValues {
  name: string;
  description: string;
  tags: string;
  defaultVersionStatus: 'draft' | 'published';
  updateSigningKey: string;
  sparklePublicKey: string;
  displayName: string;
  accentColour: string;
  supportUrl: string;
  licenceText: string;
  /** As typed: blank leaves the revision to the service (the next one for a new text). */
  licenceRevision: string;
}

export const emptyApplicationFields: ApplicationFieldValues = {
  name: '', description: '', tags: '', defaultVersionStatus: 'published', updateSigningKey: '', sparklePublicKey: '',
  displayName: '', accentColour: '', supportUrl: '', licenceText: '', licenceRevision: '',
};

/** The form's values for an application as stored. */
export function applicationFieldValues(app: Application): ApplicationFieldValues {
  return {
    name: app.name, description: app.description ?? '', tags: app.tags.join(', '), defaultVersionStatus: app.defaultVersionStatus,
    updateSigningKey: app.updateSigningKey ?? '', sparklePublicKey: app.sparklePublicKey ?? '', displayName: app.displayName ?? '',
    accentColour: app.accentColour ?? '', supportUrl: app.supportUrl ?? '', licenceText: app.licenceText ?? '',
    licenceRevision: app.licenceRevision === null ? '' : String(app.licenceRevision),
  };
}

/**
 * The request body of the fields: blank optional fields are cleared (null) on an edit, left out on a
 * create. An edit sends only what changed (the same licence sent again is no new revision, the same
 * signing key no new check of every signature).
 */
export function applicationFieldsBody(values: ApplicationFieldValues, stored: Application | null): Record<string, unknown> {
  const blank = stored ? null : undefined;
  const optional = (value: string) => value.trim() || blank;
  const body: Record<string, unknown> = {
    name: values.name.trim(),
    description: optional(values.description),
    tags: values.tags.split(',').map((tag) => tag.trim()).filter(Boolean),
    defaultVersionStatus: values.defaultVersionStatus,
    updateSigningKey: optional(values.updateSigningKey),
    sparklePublicKey: optional(values.sparklePublicKey),
    displayName: optional(values.displayName),
    accentColour: optional(values.accentColour),
    supportUrl: optional(values.supportUrl),
  };
  const text = values.licenceText.trim() ? values.licenceText : null;
  const revision = values.licenceRevision.trim() ? Number(values.licenceRevision.trim()) : undefined;
  if (text !== (stored?.licenceText ?? null)) body.licenceText = text ?? blank;
  if (text !== null && revision !== undefined && revision !== stored?.licenceRevision) body.licenceRevision = revision;
  if (!stored) return body;
  const same = (a: unknown, b: unknown) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);
  return Object.fromEntries(Object.entries(body).filter(([field, value]) => !same(value, stored[field as keyof Application])));
}

/** What the service said about one field of the last request, if anything. */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const messages = error.details.filter((detail) => detail.field === field || detail.field.startsWith(`${field}.`)).map((detail) => detail.message);
  return messages.length > 0 ? messages.join('; ') : undefined;
}

export function ApplicationFields({ values, onChange, error }: { values: ApplicationFieldValues; onChange: (values: ApplicationFieldValues) => void; error?: unknown }) {
  const set = (field: keyof ApplicationFieldValues) => (event: Event) => onChange({ ...values, [field]: (event.target as HTMLInputElement).value });
  const areaError = (field: keyof ApplicationFieldValues, label: string) =>
    fieldError(error, field) && <p class="field-error" role="alert">{label}: {fieldError(error, field)}</p>;
  return (
    <>
      <TextField label="Name" required value={values.name} onInput={set('name')} error={fieldError(error, 'name')} />
      <TextArea label="Description" value={values.description} onInput={set('description')} />
      <TextField label="Tags" value={values.tags} hint="Separated by commas, e.g. desktop, beta" onInput={set('tags')} error={fieldError(error, 'tags')} />
      <SelectField label="New versions from uploads start as" value={values.defaultVersionStatus} onChange={set('defaultVersionStatus')}
        options={[{ value: 'published', label: 'Published at once' }, { value: 'draft', label: 'Draft (publish them yourself)' }]} />
      <fieldset class="fieldset">
        <legend>The download portal</legend>
        <TextField label="Display name" value={values.displayName} hint="The name customers see; blank shows the name above" onInput={set('displayName')} error={fieldError(error, 'displayName')} />
        <TextField label="Accent colour" value={values.accentColour} placeholder="#1a5fb4" hint="The portal's colour as #rrggbb; blank for the portal's own" onInput={set('accentColour')}
          error={fieldError(error, 'accentColour')} />
        <TextField label="Support URL" type="url" value={values.supportUrl} placeholder="https://example.com/support" hint="Where customers get help (https); blank for none"
          onInput={set('supportUrl')} error={fieldError(error, 'supportUrl')} />
        <TextArea label="Licence (Markdown)" value={values.licenceText} rows={6} onInput={set('licenceText')}
          hint="Customers accept it before their first download, and again at each new revision. A changed text moves to the next revision. Blank for none." />
        {areaError('licenceText', 'Licence')}
        <TextField label="Licence revision" inputMode="numeric" value={values.licenceRevision} hint="Raise it to ask every customer to accept again; blank lets a new text take the next one"
          onInput={set('licenceRevision')} error={fieldError(error, 'licenceRevision')} />
      </fieldset>
      <fieldset class="fieldset">
        <legend>Update signatures</legend>
        <TextArea label="Update signing key" value={values.updateSigningKey} onInput={set('updateSigningKey')} spellcheck={false}
          hint="The minisign public key that tauri signer generate printed (its base64 line, or the two-line .pub text). Every SIGNATURE upload is then verified under it. Leave blank for none." />
        {areaError('updateSigningKey', 'Update signing key')}
        <TextField label="Sparkle public key" value={values.sparklePublicKey} spellcheck={false} onInput={set('sparklePublicKey')} error={fieldError(error, 'sparklePublicKey')}
          hint="The SUPublicEDKey generate_keys printed (base64 of 32 bytes): Sparkle signatures are verified under it. Leave blank for none." />
      </fieldset>
    </>
  );
}
