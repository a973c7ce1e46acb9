import { unprocessable } from '../../shared/errors';

/** The DSSE payload type of an in-toto statement. */
export const IN_TOTO_PAYLOAD_TYPE = 'application/vnd.in-toto+json';
/** The statement types of in-toto's attestation framework, v1 and the earlier v0.1. */
const STATEMENT_TYPES = new Set(['https://in-toto.io/Statement/v1', 'https://in-toto.io/Statement/v0.1']);
const SLSA_V1 = 'https://slsa.dev/provenance/v1';
const SLSA_V02 = 'https://slsa.dev/provenance/v0.2';
/** The longest builder id, repository or commit kept from a predicate. */
const PROVENANCE_FIELD_MAX_LENGTH = 512;

export interface StatementSubject {
  name: string;
  digest: Record<string, string>;
}

/** An in-toto statement as read from a DSSE payload: its subjects, predicate type and predicate. */
export interface InTotoStatement {
  subjects: StatementSubject[];
  predicateType: string;
  predicate: unknown;
}

/** What a SLSA provenance predicate says of a build: who built it, from which repository and commit. */
export interface Provenance {
  builderId: string | null;
  sourceRepository: string | null;
  sourceCommit: string | null;
}

const isObject = (value: unknown): value is Record<string, unknown> => typeof value === 'object' && value !== null && !Array.isArray(value);

/** The statement a DSSE envelope carries: its payload type must be in-toto's, its payload a statement (422 otherwise). */
export function readStatement(payloadType: string, payload: Buffer): InTotoStatement {
  if (payloadType !== IN_TOTO_PAYLOAD_TYPE) throw unprocessable(`the envelope's payloadType must be ${IN_TOTO_PAYLOAD_TYPE}`, 'INVALID_ATTESTATION');
  let statement: unknown;
  try {
    statement = JSON.parse(payload.toString('utf8'));
  } catch {
    throw unprocessable('the envelope\'s payload is not JSON', 'INVALID_ATTESTATION');
  }
  if (!isObject(statement) || typeof statement._type !== 'string' || !STATEMENT_TYPES.has(statement._type)) {
    throw unprocessable('the payload is not an in-toto statement (_type https://in-toto.io/Statement/v1)', 'INVALID_ATTESTATION');
  }
  if (typeof statement.predicateType !== 'string' || statement.predicateType.length === 0 || statement.predicateType.length > PROVENANCE_FIELD_MAX_LENGTH) {
    throw unprocessable('the statement has no predicateType', 'INVALID_ATTESTATION');
  }
  const subjects = statement.subject;
  if (!Array.isArray(subjects) || subjects.length === 0) throw unprocessable('the statement has no subject', 'INVALID_ATTESTATION');
  const read: StatementSubject[] = [];
  for (const subject of subjects) {
    if (!isObject(subject) || !isObject(subject.digest)) throw unprocessable('every subject of the statement needs a digest', 'INVALID_ATTESTATION');
    const digest: Record<string, string> = {};
    for (const [algorithm, value] of Object.entries(subject.digest)) if (typeof value === 'string') digest[algorithm] = value.toLowerCase();
    read.push({ name: typeof subject.name === 'string' ? subject.name : '', digest });
  }
  return { subjects: read, predicateType: statement.predicateType, predicate: statement.predicate };
}

/**
 * Which of the file's digests a subject of the statement names: its SHA-256 (hex) or, failing that,
 * its SHA-512 (hex); 422 ATTESTATION_SUBJECT_MISMATCH when none does.
 */
export function matchSubject(statement: InTotoStatement, file: { sha256Hex: string; sha512Hex: string | null }): 'sha256' | 'sha512' {
  if (statement.subjects.some((subject) => subject.digest.sha256 === file.sha256Hex)) return 'sha256';
  if (file.sha512Hex !== null && statement.subjects.some((subject) => subject.digest.sha512 === file.sha512Hex)) return 'sha512';
  throw unprocessable("no subject of the statement has the file's SHA-256 or SHA-512 digest", 'ATTESTATION_SUBJECT_MISMATCH');
}

const text = (value: unknown): string | null =>
  typeof value === 'string' && value.length > 0 && value.length <= PROVENANCE_FIELD_MAX_LENGTH ? value : null;

/** A repository named by a source URI: `git+https://host/owner/repo@refs/heads/main` reads as `https://host/owner/repo`. */
function repositoryOf(uri: unknown): string | null {
  const value = text(uri);
  if (value === null) return null;
  return value.replace(/^git\+/, '').replace(/@(?:refs\/.*|[^/]*)$/, '');
}

/** The commit a digest set names: gitCommit, else a SHA-1 (SLSA's source digests). */
function commitOf(digest: unknown): string | null {
  if (!isObject(digest)) return null;
  return text(digest.gitCommit) ?? text(digest.sha1);
}

/**
 * What a SLSA provenance predicate says of its build. v1: the builder is `runDetails.builder.id`;
 * the source is the first resolved dependency naming a commit, else the workflow's repository in
 * `externalParameters`. v0.2: `builder.id`, the source `invocation.configSource`, else the first
 * material naming a commit. Other predicates say nothing of it (all null).
 */
export function readProvenance(statement: InTotoStatement): Provenance {
  const predicate = statement.predicate;
  const none: Provenance = { builderId: null, sourceRepository: null, sourceCommit: null };
  if (!isObject(predicate)) return none;
  if (statement.predicateType === SLSA_V1) {
    const runDetails = isObject(predicate.runDetails) ? predicate.runDetails : {};
    const builder = isObject(runDetails.builder) ? runDetails.builder : {};
    const definition = isObject(predicate.buildDefinition) ? predicate.buildDefinition : {};
    const dependencies = Array.isArray(definition.resolvedDependencies) ? definition.resolvedDependencies.filter(isObject) : [];
    const source = dependencies.find((dependency) => commitOf(dependency.digest) !== null);
    const external = isObject(definition.externalParameters) ? definition.externalParameters : {};
    const workflow = isObject(external.workflow) ? external.workflow : {};
    return {
      builderId: text(builder.id),
      sourceRepository: repositoryOf(source?.uri) ?? repositoryOf(workflow.repository) ?? repositoryOf(external.source),
      sourceCommit: source ? commitOf(source.digest) : null,
    };
  }
  if (statement.predicateType === SLSA_V02) {
    const builder = isObject(predicate.builder) ? predicate.builder : {};
    const invocation = isObject(predicate.invocation) ? predicate.invocation : {};
    const configSource = isObject(invocation.configSource) ? invocation.configSource : {};
    const materials = Array.isArray(predicate.materials) ? predicate.materials.filter(isObject) : [];
    const source = commitOf(configSource.digest) !== null ? configSource : materials.find((material) => commitOf(material.digest) !== null);
    return {
      builderId: text(builder.id),
      sourceRepository: repositoryOf(source?.uri),
      sourceCommit: source ? commitOf(source.digest) : null,
    };
  }
  return none;
}
