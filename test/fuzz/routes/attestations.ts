import fc from 'fast-check';
import { generateKeyPairSync } from 'node:crypto';
import { text } from '../fields';
import { FieldRule, pathParameterDefects, unreadBodyOddities } from '../mutations';
import { jsonNotArray, jsonNotString, jsonString } from '../values';
import type { RouteContext } from './context';
import { draft, fuzzer, json, jsonBody, keyed, plus, RouteFuzzer, values } from './route-fuzzer';

const FILE_ATTESTATIONS = '/v1/management/applications/:applicationId/versions/:version/files/:fileId/attestations';
const ATTESTATION_KEYS = '/v1/management/applications/:applicationId/attestation-keys';
const CUSTOMER_ATTESTATIONS = '/v1/downloads/files/:fileId/attestations';
const IN_TOTO = 'application/vnd.in-toto+json';

const base64Json = (value: unknown) => jsonString(Buffer.from(JSON.stringify(value)).toString('base64'));

/** Provenance attestations and the keys that verify them. */
export function attestationFuzzers({ f, keys, admin, customer, applicationParam, known }: RouteContext): RouteFuzzer[] {
  const main = f.apps.main;
  const statement = (sha256: string) => ({ _type: 'https://in-toto.io/Statement/v1', subject: [{ name: 'setup.exe', digest: { sha256 } }], predicateType: 'https://slsa.dev/provenance/v1', predicate: {} });
  const payloadType: FieldRule = {
    required: true,
    valid: values(jsonString(IN_TOTO)),
    invalid: fc.oneof(jsonNotString, values('""', jsonString('x'.repeat(201)), jsonString('text/plain')).map((v) => v)),
    expects: [400, 422],
  };
  const payload: FieldRule = {
    required: true,
    valid: values(base64Json(statement(f.files.main.sha256))),
    invalid: fc.oneof(jsonNotString, values('""', '"not base64!"', base64Json({ hello: 1 }), base64Json(statement('0'.repeat(64))), base64Json(statement(f.files.premium.sha256)), '"e30="')),
    expects: [400, 422],
  };
  const signatures: FieldRule = {
    required: true,
    valid: values('[{"sig":"AAAA"}]', '[{"keyid":"k","sig":"AAAA"}]'),
    invalid: fc.oneof(jsonNotArray, values('[]', '[{}]', '[{"sig":""}]', '[{"sig":"***"}]', '[{"sig":"AA==","extra":1}]', '[null]', JSON.stringify(Array.from({ length: 17 }, () => ({ sig: 'AA==' }))))),
  };
  const envelope = jsonBody({ payloadType, payload, signatures }, { emptyIsRefused: true });
  const ed25519 = jsonString(generateKeyPairSync('ed25519').publicKey.export({ type: 'spki', format: 'pem' }).toString());
  const rsa = jsonString(generateKeyPairSync('rsa', { modulusLength: 1024 }).publicKey.export({ type: 'spki', format: 'pem' }).toString());
  const publicKey: FieldRule = {
    required: true,
    valid: values(ed25519),
    invalid: fc.oneof(jsonNotString, values('""', rsa, '"-----BEGIN PUBLIC KEY-----\\nAAAA\\n-----END PUBLIC KEY-----\\n"', jsonString('x'.repeat(5000)))),
    expects: [400, 422],
  };
  const keyId: FieldRule = { valid: fc.uuid().map(jsonString), invalid: fc.oneof(jsonNotString, values('""', '"a b"', jsonString('k'.repeat(129)))) };
  const keyBody = jsonBody({ publicKey, keyId }, { emptyIsRefused: true });
  const fileParams = { applicationId: main, version: f.versions.open, fileId: f.files.main.fileId };
  const fileParam = pathParameterDefects('fileId', fc.oneof(text.hostileSegment('file'), fc.constant(f.files.premium.fileId)));
  const versionParam = pathParameterDefects('version', fc.oneof(text.badVersionReference, values(f.versions.premium, '9.9.9')));

  return [
    fuzzer({
      method: 'POST', path: FILE_ATTESTATIONS, changesData: true,
      base: draft('POST', FILE_ATTESTATIONS, fileParams, admin, json({
        payloadType: jsonString(IN_TOTO), payload: base64Json(statement(f.files.main.sha256)), signatures: '[{"sig":"AAAA"}]',
      })),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted), versionParam, fileParam, ...envelope.defects], envelope.oddities, [...known.jsonBody]),
    }),
    fuzzer({
      method: 'GET', path: FILE_ATTESTATIONS, changesData: false,
      base: draft('GET', FILE_ATTESTATIONS, fileParams, admin),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted), versionParam, fileParam], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'POST', path: ATTESTATION_KEYS, changesData: true,
      base: draft('POST', ATTESTATION_KEYS, { applicationId: main }, admin, json({ publicKey: ed25519 })),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted), ...keyBody.defects], keyBody.oddities, [...known.jsonBody]),
    }),
    fuzzer({
      method: 'GET', path: ATTESTATION_KEYS, changesData: false,
      base: draft('GET', ATTESTATION_KEYS, { applicationId: main }, admin),
      ...plus(keyed('admin', keys), [applicationParam(f.apps.deleted)], [unreadBodyOddities]),
    }),
    fuzzer({
      method: 'GET', path: CUSTOMER_ATTESTATIONS, changesData: false,
      base: draft('GET', CUSTOMER_ATTESTATIONS, { fileId: f.files.main.fileId }, customer),
      ...plus(keyed('customer', keys), [pathParameterDefects('fileId', fc.oneof(text.hostileSegment('file'), fc.constant(f.draft.file.fileId)))], [unreadBodyOddities]),
    }),
  ];
}
