import fc from 'fast-check';
import { defect, Draft, FormPart, Mutation, oddity } from './draft';
import { text } from './fields';
import { declaredLengthOnly } from './mutations';
import type { Fixture } from './fixture';
import { encoded, HUGE_LENGTHS, unknownId, unusualText } from './values';

/*
 * The small upload's multipart form: what a form can get wrong (cut short, misframed, fields that
 * break the rules, a file that conflicts with a published one) and what it may do differently.
 */

const SMALL_UPLOAD_LIMIT_BYTES = 10 * 1024 * 1024 + 1024 * 1024;
/** Per field; busboy truncates longer values. */
const FIELD_LIMIT_BYTES = 64 * 1024;
const MAX_PARTS = 40;

type Form = Extract<Draft['body'], { kind: 'form' }>;

const formOf = (draft: Draft): Form => {
  if (draft.body.kind !== 'form') throw new Error('not a multipart draft');
  return draft.body;
};

const setField = (draft: Draft, name: string, value: string) => {
  const form = formOf(draft);
  const file = form.parts.findIndex((part) => part.fileName !== undefined);
  form.parts = form.parts.filter((part) => part.name !== name || part.fileName !== undefined);
  // Fields before the file, as browsers send them: the service reads them as they stream past.
  form.parts.splice(file < 0 ? form.parts.length : Math.min(file, form.parts.length), 0, { name, value });
};

const removeParts = (draft: Draft, keep: (part: FormPart) => boolean) => {
  const form = formOf(draft);
  form.parts = form.parts.filter(keep);
};

const fileOf = (draft: Draft): FormPart | undefined => formOf(draft).parts.find((part) => part.fileName !== undefined);

/** RFC 5987 `filename*`, the only way a part header carries bytes such as CR, LF or NUL. */
const encodedFileName = (part: FormPart, name: string) => {
  part.headers = `Content-Disposition: form-data; name="${part.name}"; filename*=utf-8''${encoded(name)}\r\nContent-Type: application/octet-stream`;
};

export function uploadBase(fixture: Fixture, boundary: string, version: string): Draft['body'] {
  return {
    kind: 'form',
    boundary,
    closed: true,
    parts: [
      { name: 'applicationId', value: fixture.apps.main },
      { name: 'version', value: version },
      { name: 'file', value: 'hello, fuzz', fileName: 'fuzz.bin', contentType: 'application/octet-stream' },
    ],
  };
}

/** Refused releases: each would replace the version's metadata if a refused upload could. */
const REFUSED_RELEASE = { releaseNotes: 'written by a refused upload', requiredTier: 'enterprise' };

export function uploadConflicts(fixture: Fixture): Mutation[] {
  const withRelease = (draft: Draft) => {
    setField(draft, 'releaseNotes', REFUSED_RELEASE.releaseNotes);
    setField(draft, 'requiredTier', REFUSED_RELEASE.requiredTier);
  };
  return [
    defect('a second MAIN file for a published version', (draft) => {
      setField(draft, 'version', fixture.versions.open);
      setField(draft, 'fileType', 'MAIN');
      withRelease(draft);
    }, [409]),
    defect('a file name the version already has', (draft) => {
      setField(draft, 'version', fixture.versions.open);
      setField(draft, 'fileType', 'DEPENDENCY');
      const file = fileOf(draft);
      if (file) file.fileName = fixture.files.dependency.fileName;
      withRelease(draft);
    }, [409]),
    defect('the file name a pending large upload reserved', (draft) => {
      setField(draft, 'version', fixture.upload.version);
      setField(draft, 'fileType', 'DEPENDENCY');
      const file = fileOf(draft);
      if (file) file.fileName = fixture.upload.fileName;
      withRelease(draft);
    }, [409]),
    ...([['channel', 'beta'], ['status', 'draft']] as const).map(([name, value]) => defect(`another ${name} than the published version has`, (draft) => {
      setField(draft, 'version', fixture.versions.open);
      setField(draft, 'fileType', 'OTHER');
      setField(draft, name, value);
      withRelease(draft);
    }, [409])),
  ];
}

/** The body ends inside the file part: no closing boundary (the body is otherwise whole). */
export const unclosedForm = defect('no closing boundary', (draft) => {
  formOf(draft).closed = false;
}, [400]);

export const formField = (name: string, value: string, expects: number[]): Mutation =>
  defect(`form field ${name} = ${JSON.stringify(value.slice(0, 30))}`, (draft) => setField(draft, name, value), expects);

export const unknownFormField = (name: string): Mutation => defect(`unknown form field ${name}`, (draft) => setField(draft, name, '1'), [400]);

/**
 * The body cut at `fraction` of its length: declared as sent (the form simply ends early), or
 * declared whole and the connection half-closed (a client that gave up mid-file).
 */
export const cutForm = (fraction: number, declareWhole: boolean): Mutation => declareWhole
  ? defect('form cut short, connection half-closed', (draft) => {
    draft.truncate = { fraction, declareWhole };
  })
  : defect('form cut short (length as sent)', (draft) => {
    draft.truncate = { fraction, declareWhole };
  }, [400]);

export function uploadDefects(fixture: Fixture): fc.Arbitrary<Mutation>[] {
  const fieldValue = (name: string, values: fc.Arbitrary<string>, expects: number[]) => values.map((value) => formField(name, value, expects));
  const fraction = fc.double({ min: 0.05, max: 0.99, noNaN: true });
  return [
    fc.constant(unclosedForm),
    fraction.map((at) => cutForm(at, false)),
    fraction.map((at) => cutForm(at, true)),
    fc.constantFrom('bogus', '__proto__', 'constructor', 'prototype', 'toString', 'fileName', 'checksum', 'fileSize').map(unknownFormField),
    fieldValue('applicationId', fc.oneof(text.badApplicationId, unknownId('app'), fc.constant(fixture.apps.deleted)), [400, 404]),
    fieldValue('version', text.badNewVersion, [400]),
    fieldValue('releaseNotes', text.badMultiLine(20_000), [400]),
    fieldValue('fileType', text.badFileType, [400]),
    fieldValue('requiredTier', text.badTier, [400]),
    fieldValue('platform', text.badPlatform, [400]),
    fieldValue('arch', text.badArch, [400]),
    fieldValue('channel', text.badChannel, [400]),
    fieldValue('status', text.badUploadStatus, [400]),
    fc.constantFrom('windows', 'linux', 'any').map((platform) => defect(`arch universal with platform ${platform}`, (draft) => {
      setField(draft, 'platform', platform);
      setField(draft, 'arch', 'universal');
    }, [400])),
    fc.constantFrom('applicationId', 'version').map((name) => defect(`form field ${name} missing`, (draft) => removeParts(draft, (part) => part.name !== name), [400])),
    fc.constant(defect('no file', (draft) => removeParts(draft, (part) => part.fileName === undefined), [400])),
    fc.constant(defect('two files', (draft) => {
      formOf(draft).parts.push({ name: 'file', value: 'one', fileName: 'one.bin' }, { name: 'file', value: 'two', fileName: 'two.bin' });
    }, [400])),
    fc.constantFrom('upload', 'files', 'file[]', '').map((name) => defect(`the file in field ${JSON.stringify(name)}`, (draft) => {
      const file = fileOf(draft);
      if (file) file.name = name;
    }, [400])),
    fc.constant(defect('the file sent as a plain field', (draft) => {
      const file = fileOf(draft);
      if (file) delete file.fileName;
    }, [400])),
    fc.constantFrom('', '.', '..').map((name) => defect(`file name ${JSON.stringify(name)}`, (draft) => {
      const file = fileOf(draft);
      if (file) file.fileName = name;
    }, [400])),
    fc.constantFrom('a\u0000b.bin', 'a\r\nb.bin', 'a\nb.bin', 'a\u007fb.bin', 'a\u001bb.bin', 'a\u2028b.bin', 'x'.repeat(256))
      .map((name) => defect(`file name ${JSON.stringify(name.slice(0, 30))} (RFC 5987)`, (draft) => {
        const file = fileOf(draft);
        if (file) encodedFileName(file, name);
      }, [400])),
    fc.constantFrom('multipart/form-data', 'multipart/form-data; boundary=', 'multipart/mixed; boundary=B', 'text/plain', null)
      .map((type) => defect(`Content-Type ${type ?? '(none)'}`, (draft) => {
        draft.contentType = type === null ? null : type.replace('=B', `=${formOf(draft).boundary}`);
      }, [415])),
    // JSON bodies are parsed before the route is reached: a form sent as JSON is malformed JSON.
    fc.constant(defect('Content-Type application/json', (draft) => {
      draft.contentType = 'application/json';
    }, [400, 415])),
    fc.constant(defect('a boundary the body does not use', (draft) => {
      draft.contentType = 'multipart/form-data; boundary=other-boundary';
    }, [400])),
    fc.constantFrom('gzip', 'br', 'deflate', 'bogus').map((coding) => defect(`Content-Encoding ${coding} on a plain form`, (draft) => {
      draft.headers = [...draft.headers.filter(([name]) => name.toLowerCase() !== 'content-encoding'), ['Content-Encoding', coding]];
    }, [400, 415])),
    fc.constantFrom(...HUGE_LENGTHS, SMALL_UPLOAD_LIMIT_BYTES + 1).map(declaredLengthOnly),
    fc.constant(defect(`more than ${MAX_PARTS} parts`, (draft) => {
      for (let i = 0; i <= MAX_PARTS; i += 1) formOf(draft).parts.unshift({ name: 'releaseNotes', value: 'x' });
    }, [400])),
    fc.constant(defect('a field longer than the form takes', (draft) => setField(draft, 'releaseNotes', 'x'.repeat(FIELD_LIMIT_BYTES + 1)), [400])),
    fc.constantFrom(...uploadConflicts(fixture)),
  ];
}

export function uploadOddities(): fc.Arbitrary<Mutation>[] {
  return [
    fc.constantFrom('text/plain', 'application/x-msdownload', '', 'x/y; a="b"', '\u00ff').map((type) => oddity(`file part Content-Type ${JSON.stringify(type)}`, (draft) => {
      const file = fileOf(draft);
      if (file) file.contentType = type;
    })),
    fc.constantFrom('../x.bin', 'C:\\temp\\x.bin', 'dir/x.bin', 'ünïcode.bin', 'x'.repeat(200), 'a"b.bin').map((name) => oddity(`file name ${JSON.stringify(name.slice(0, 30))}`, (draft) => {
      const file = fileOf(draft);
      if (file) file.fileName = name;
    })),
    fc.constant(oddity('a preamble and an epilogue', (draft) => {
      const form = formOf(draft);
      form.preamble = `This is a multipart message.\r\n`;
      form.epilogue = 'trailing text';
    })),
    fc.constant(oddity('chunked body', (draft) => {
      draft.chunked = true;
    })),
    unusualText('Notes').map((notes) => oddity(`releaseNotes ${JSON.stringify(notes.slice(0, 30))}`, (draft) => setField(draft, 'releaseNotes', notes))),
    fc.constantFrom('free', 'premium').map((tier) => oddity(`requiredTier ${tier}`, (draft) => setField(draft, 'requiredTier', tier))),
    fc.constantFrom(['windows', 'x64'], ['macos', 'universal'], ['linux', 'armv7l'], ['any', 'any']).map(([platform, arch]) => oddity(`a file for ${platform} ${arch}`, (draft) => {
      setField(draft, 'platform', platform);
      setField(draft, 'arch', arch);
    })),
    fc.constantFrom(['channel', 'beta'], ['status', 'draft'], ['status', 'published']).map(([name, value]) => oddity(`${name} ${value}`, (draft) => setField(draft, name, value))),
    fc.constant(oddity('an empty file', (draft) => {
      const file = fileOf(draft);
      if (file) file.value = '';
    })),
  ];
}
