import fc from 'fast-check';
import type { Mutation } from '../draft';
import { fields, text, withValid } from '../fields';
import { FieldRules, jsonField, pathParameterDefects, unreadBodyOddities } from '../mutations';
import { cutForm, formField, unclosedForm, unknownFormField, uploadBase, uploadConflicts, uploadDefects, uploadOddities } from '../upload-form';
import { jsonString, unknownId } from '../values';
import type { RouteContext } from './context';
import { draft, fuzzer, json, jsonBody, keyed, plus, RouteFuzzer, setJson, values } from './route-fuzzer';

/** Small uploads, the large-upload flow, multipart uploads and upload status. */
export function uploadFuzzers({ f, keys, admin, fresh, known }: RouteContext): RouteFuzzer[] {
  const main = f.apps.main;
  const missingApps = [f.apps.deleted];
  const largeUrl = jsonBody({
    applicationId: withValid(fields.applicationReference(missingApps), fc.constant(jsonString(main))),
    version: fields.newVersion(),
    fileName: fields.fileName(true),
    fileSize: fields.fileSize(),
    contentType: fields.contentType(),
    fileType: fields.fileType(),
    platform: fields.platform(),
    arch: fields.arch(),
    releaseNotes: fields.multiLine(20_000, { nullable: false }),
    requiredTier: fields.tier(false),
    channel: fields.channel(),
    status: fields.uploadStatus(),
  }, { emptyIsRefused: false });
  // Each would replace the version's metadata if a refused upload could.
  const refusedRelease = { releaseNotes: jsonString('written by a refused upload'), requiredTier: '"enterprise"' };
  const conflict = (label: string, fieldValues: Record<string, string>): Mutation =>
    ({ label, defect: true, expects: [409], apply: (d) => setJson(d, { ...fieldValues, ...refusedRelease }) });
  const largeUrlConflicts = [
    conflict('a second MAIN file for a published version (large-url)', { version: jsonString(f.versions.open), fileType: '"MAIN"' }),
    conflict('a file name the version already has (large-url)', {
      version: jsonString(f.versions.open), fileType: '"DEPENDENCY"', fileName: jsonString(f.files.dependency.fileName),
    }),
    conflict('the file name a pending large upload reserved (large-url)', {
      version: jsonString(f.upload.version), fileType: '"DEPENDENCY"', fileName: jsonString(f.upload.fileName),
    }),
    conflict('another channel than the published version has (large-url)', { version: jsonString(f.versions.open), fileType: '"OTHER"', channel: '"beta"' }),
    conflict('another status than the published version has (large-url)', { version: jsonString(f.versions.open), fileType: '"OTHER"', status: '"draft"' }),
  ];
  const universalElsewhere: Mutation = {
    label: 'arch universal for another platform than macos (large-url)', defect: true, expects: [400],
    apply: (d) => setJson(d, { platform: '"windows"', arch: '"universal"' }),
  };
  const exactly = (value: string, other: fc.Arbitrary<string>, rule: { invalid: fc.Arbitrary<string> }) =>
    ({ required: true, valid: fc.constant(value), invalid: fc.oneof(rule.invalid, other) });
  const largeCompleteRules: FieldRules = {
    uploadId: {
      required: true,
      valid: fc.constant(jsonString(f.upload.uploadId)),
      invalid: fc.oneof(values('""', jsonString('x'.repeat(101)), '1', 'null'), unknownId('upl').map(jsonString)),
      expects: [400, 404],
    },
    // Fields that differ from the issued upload's are refused like malformed ones.
    applicationId: exactly(jsonString(main), fc.constant(jsonString(f.apps.spare)), fields.applicationReference(missingApps)),
    version: exactly(jsonString(f.upload.version), fc.constant(jsonString(f.versions.open)), fields.versionReference()),
    fileName: exactly(jsonString(f.upload.fileName), fc.constant('"other.bin"'), fields.fileName(true)),
    fileSize: exactly(String(f.upload.fileSize), fc.constant(String(f.upload.fileSize + 1)), fields.fileSize()),
    checksum: fields.checksum(),
    releaseNotes: fields.multiLine(20_000, { nullable: false }),
  };
  const largeComplete = jsonBody(largeCompleteRules, { emptyIsRefused: false });
  const multipartOpen = jsonBody({
    applicationId: withValid(fields.applicationReference(missingApps), fc.constant(jsonString(main))),
    version: fields.newVersion(),
    fileName: fields.fileName(true),
    fileSize: fields.multipartFileSize(),
    contentType: fields.contentType(),
    fileType: fields.fileType(),
    platform: fields.platform(),
    arch: fields.arch(),
    channel: fields.channel(),
    status: fields.uploadStatus(),
    releaseNotes: fields.multiLine(20_000, { nullable: false }),
    requiredTier: fields.tier(false),
    checksum: fields.checksum(),
  }, { emptyIsRefused: false });
  const multipartConflicts = largeUrlConflicts.map((c) => ({ ...c, label: c.label.replace('large-url', 'multipart') }));
  const partUrls = jsonBody({ partNumbers: fields.partNumbers(f.multipart.partCount) }, { emptyIsRefused: true });
  const uploadParam = pathParameterDefects('uploadId', fc.oneof(text.hostileSegment('upl'), fc.constant('x'.repeat(101))));
  const MULTIPART = '/v1/management/uploads/multipart';
  const UPLOAD = '/v1/management/uploads/:uploadId';
  const boundary = `----fuzz${f.tag}`;

  return [
    fuzzer({
      method: 'POST', path: '/v1/management/upload', changesData: true,
      base: () => draft('POST', '/v1/management/upload', {}, admin, uploadBase(f, boundary, fresh('u'))),
      ...plus(keyed('admin', keys), uploadDefects(f), uploadOddities(), [
        [unclosedForm], [cutForm(0.9, false)], [cutForm(0.9, true)], ...uploadConflicts(f).map((c) => [c]), ...known.hugeDeclaredLengths,
        // A field named __proto__ once vanished from the form instead of being refused.
        [unknownFormField('__proto__')],
        ...known.pathSignificantVersions.map((version) => [formField('version', version, [400])]), [formField('releaseNotes', 'a\u0000b', [400])],
      ]),
    }),
    fuzzer({
      method: 'POST', path: '/v1/management/upload/large-url', changesData: true,
      base: () => draft('POST', '/v1/management/upload/large-url', {}, admin, json({
        applicationId: jsonString(main), version: jsonString(fresh('l')), fileName: '"big.bin"', fileSize: '1000',
      })),
      ...plus(keyed('admin', keys), [...largeUrl.defects, fc.constantFrom(...largeUrlConflicts, universalElsewhere)], largeUrl.oddities, [
        ...known.jsonBody, ...largeUrlConflicts.map((c) => [c]), [universalElsewhere], ...known.nulIn('releaseNotes'),
        ...known.pathSignificantVersions.map((version) => [jsonField('version', jsonString(version))]),
      ]),
    }),
    fuzzer({
      method: 'POST', path: '/v1/management/upload/large-complete', changesData: true,
      base: draft('POST', '/v1/management/upload/large-complete', {}, admin, json({
        uploadId: jsonString(f.upload.uploadId), applicationId: jsonString(main), version: jsonString(f.upload.version),
        fileName: jsonString(f.upload.fileName), fileSize: String(f.upload.fileSize),
      })),
      ...plus(keyed('admin', keys), largeComplete.defects, largeComplete.oddities, known.jsonBody),
    }),
    fuzzer({
      method: 'GET', path: UPLOAD, changesData: false,
      base: draft('GET', UPLOAD, { uploadId: f.upload.uploadId }, admin),
      ...plus(keyed('admin', keys), [uploadParam]),
    }),
    fuzzer({
      method: 'POST', path: MULTIPART, changesData: true,
      base: () => draft('POST', MULTIPART, {}, admin, json({
        applicationId: jsonString(main), version: jsonString(fresh('m')), fileName: '"huge.bin"', fileSize: '20971520',
      })),
      ...plus(keyed('admin', keys), [...multipartOpen.defects, fc.constantFrom(...multipartConflicts)], multipartOpen.oddities, [
        ...known.jsonBody, ...multipartConflicts.map((c) => [c]), ...known.nulIn('releaseNotes'),
        ...known.pathSignificantVersions.map((version) => [jsonField('version', jsonString(version))]),
        [jsonField('platform', '"windows"'), jsonField('arch', '"universal"')],
      ]),
    }),
    fuzzer({
      method: 'POST', path: `${UPLOAD}/parts`, changesData: false,
      base: draft('POST', `${UPLOAD}/parts`, { uploadId: f.multipart.uploadId }, admin, json({ partNumbers: '[1, 2]' })),
      ...plus(keyed('admin', keys), [...partUrls.defects, uploadParam], partUrls.oddities, known.jsonBody),
    }),
    fuzzer({
      method: 'POST', path: `${UPLOAD}/complete`, changesData: true,
      base: draft('POST', `${UPLOAD}/complete`, { uploadId: f.multipart.uploadId }, admin),
      // Its parts were never sent: the upload itself refuses completion (409) whatever else is wrong.
      ...plus(keyed('admin', keys), [uploadParam], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'DELETE', path: UPLOAD, changesData: true,
      base: draft('DELETE', UPLOAD, { uploadId: f.multipart.uploadId }, admin),
      ...plus(keyed('admin', keys), [uploadParam], [unreadBodyOddities]),
    }),
  ];
}
