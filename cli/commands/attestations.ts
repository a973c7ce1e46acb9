import type { AnswerOf, BodyOf } from '../../shared/contract/client';
import fs from 'node:fs';
import { Command } from 'commander';
import { action } from '../context';
import { UsageError } from '../errors';


/** A file's text, `-` for standard input. */
function readText(file: string, what: string): string {
  try {
    return fs.readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new UsageError(`cannot read ${what} from ${file}: ${(error as Error).message}`);
  }
}

/** One line of what an attestation says: its provenance and its verification. */
function describe(attestation: AnswerOf<'addFileAttestation'>): string[] {
  const { builderId, sourceRepository, sourceCommit } = attestation.provenance;
  const { status, keyId, detail } = attestation.verification;
  return [
    attestation.attestationId, attestation.format, attestation.predicateType,
    builderId ?? '-', [sourceRepository, sourceCommit].filter(Boolean).join(' @ ') || '-',
    keyId ? `${status} (${keyId})` : detail ? `${status}: ${detail}` : status,
  ];
}

export function attestationsCommand(): Command {
  const command = new Command('attestations').description("Provenance attestations of a release's files (in-toto statements in DSSE envelopes or Sigstore bundles)");
  command.command('add').description("Add an attestation (a DSSE envelope or Sigstore bundle JSON file, - for stdin) to a file; its subject must be the file's SHA-256 or SHA-512")
    .argument('<applicationId>').argument('<version>').argument('<fileId>').argument('<attestation>', 'the .intoto.jsonl/.sigstore.json file, or -')
    .action(action(async (context, applicationId: string, version: string, fileId: string, file: string) => {
      let body: unknown;
      try {
        body = JSON.parse(readText(file, 'the attestation'));
      } catch (error) {
        if (error instanceof UsageError) throw error;
        throw new UsageError(`${file} is not JSON: ${(error as Error).message}`);
      }
      const data = await context.client().addFileAttestation({ applicationId: applicationId, version: version, fileId: fileId }, body as BodyOf<'addFileAttestation'>) // the service checks the document;
      context.output.result(data, () => {
        context.output.line(`added ${data.attestationId}: ${data.verification.status}${data.verification.detail ? ` (${data.verification.detail})` : ''}`);
        if (data.provenance.builderId) context.output.line(`built by ${data.provenance.builderId}${data.provenance.sourceCommit ? `, from commit ${data.provenance.sourceCommit}` : ''}`);
      });
    }));
  command.command('list').description("A file's attestations: with --app and --version as its vendor (an admin key), else as a customer who may download it")
    .argument('<fileId>')
    .option('--app <applicationId>', "the file's application (with --version)")
    .option('--version <version>', "the file's version (with --app)")
    .action(action(async (context, fileId: string, options: { app?: string; version?: string }) => {
      if ((options.app === undefined) !== (options.version === undefined)) throw new UsageError('give --app and --version together, or neither');
      const client = context.client();
      const data = options.app !== undefined && options.version !== undefined
        ? await client.listFileAttestations({ applicationId: options.app, version: options.version, fileId })
        : await client.listDownloadAttestations({ fileId });
      context.output.result(data, () => {
        context.output.table(['id', 'format', 'predicate', 'built by', 'source', 'verification'], data.attestations.map(describe));
      });
    }));
  command.command('add-key').description("Register a public key (Ed25519 or ECDSA P-256, PEM file) that verifies the application's attestations")
    .argument('<applicationId>').argument('<publicKeyFile>', 'the PEM file, or -')
    .option('--key-id <keyId>', "the id its signatures name (a DSSE keyid, a bundle's key hint); default the SHA-256 of the key")
    .action(action(async (context, applicationId: string, file: string, options: { keyId?: string }) => {
      const data = await context.client().addAttestationKey({ applicationId: applicationId }, {
        publicKey: readText(file, 'the public key'), ...(options.keyId ? { keyId: options.keyId } : {}),
      });
      context.output.result(data, () => context.output.line(`registered ${data.algorithm} key ${data.keyId}`));
    }));
  command.command('keys').description("The public keys registered to verify the application's attestations")
    .argument('<applicationId>')
    .action(action(async (context, applicationId: string) => {
      const data = await context.client().listAttestationKeys({ applicationId: applicationId });
      context.output.result(data, () => context.output.table(['key id', 'algorithm', 'registered'], data.keys.map((key) => [key.keyId, key.algorithm, key.createdAt])));
    }));
  return command;
}
