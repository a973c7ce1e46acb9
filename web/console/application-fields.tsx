// The fields an application is created and edited with, in one place for both forms. The service
// validates them; its word on a field (the update signing key above all) is shown under that field.
import { ApiError } from '../common/api';
import { SelectField, TextArea, TextField } from '../common/components';

export interface ApplicationFieldValues {
  name: string;
  description: string;
  tags: string;
  defaultVersionStatus: 'draft' | 'published';
  updateSigningKey: string;
}

export const emptyApplicationFields: ApplicationFieldValues = { name: '', description: '', tags: '', defaultVersionStatus: 'published', updateSigningKey: '' };

/** The request body of the fields: blank description and key are cleared (null) on an edit, left out on a create. */
export function applicationFieldsBody(values: ApplicationFieldValues, editing: boolean): Record<string, unknown> {
  const blank = editing ? null : undefined;
  return {
    name: values.name.trim(),
    description: values.description.trim() || blank,
    tags: values.tags.split(',').map((tag) => tag.trim()).filter(Boolean),
    defaultVersionStatus: values.defaultVersionStatus,
    updateSigningKey: values.updateSigningKey.trim() || blank,
  };
}

/** What the service said about one field of the last request, if anything. */
export function fieldError(error: unknown, field: string): string | undefined {
  if (!(error instanceof ApiError)) return undefined;
  const messages = error.details.filter((detail) => detail.field === field || detail.field.startsWith(`${field}.`)).map((detail) => detail.message);
  return messages.length > 0 ? messages.join('; ') : undefined;
}

export function ApplicationFields({ values, onChange, error }: { values: ApplicationFieldValues; onChange: (values: ApplicationFieldValues) => void; error?: unknown }) {
  const set = (field: keyof ApplicationFieldValues) => (event: Event) => onChange({ ...values, [field]: (event.target as HTMLInputElement).value });
  return (
    <>
      <TextField label="Name" required value={values.name} onInput={set('name')} error={fieldError(error, 'name')} />
      <TextArea label="Description" value={values.description} onInput={set('description')} />
      <TextField label="Tags" value={values.tags} hint="Separated by commas, e.g. desktop, beta" onInput={set('tags')} error={fieldError(error, 'tags')} />
      <SelectField label="New versions from uploads start as" value={values.defaultVersionStatus} onChange={set('defaultVersionStatus')}
        options={[{ value: 'published', label: 'Published at once' }, { value: 'draft', label: 'Draft (publish them yourself)' }]} />
      <TextArea label="Update signing key" value={values.updateSigningKey} onInput={set('updateSigningKey')} spellcheck={false}
        hint="The minisign public key that tauri signer generate printed (its base64 line, or the two-line .pub text). Every SIGNATURE upload is then verified under it. Leave blank for none." />
      {fieldError(error, 'updateSigningKey') && <p class="field-error" role="alert">Update signing key: {fieldError(error, 'updateSigningKey')}</p>}
    </>
  );
}
