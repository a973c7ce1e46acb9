import { BoundedMap } from '../../shared/cache/bounded-map';
import { MinisignFormatError, parseSignature } from '../../shared/signing/minisign';
import type { ObjectStorage } from '../../shared/storage/object-storage';
import type { FileRecord } from '../../shared/store/models';
import { MAX_UPDATE_SIGNATURE_BYTES } from '../../shared/uploads/update-signature-check';
import type { Eventually } from '../http/eventually';

/** Signatures kept in process; past this the memory starts over (each is a few hundred bytes). */
const MAX_KEPT = 1_000;

/**
 * The content of SIGNATURE files, as Tauri answers carry it: base64 of minisign's text, which is
 * what `tauri signer sign` writes (a file holding minisign's text itself is encoded the same way).
 * Published files never change, so each is read from the object store once per process.
 */
export class SignatureTexts {
  private readonly texts = new BoundedMap<string, string>(MAX_KEPT);

  constructor(private readonly storage: ObjectStorage) {}

  text(file: FileRecord): Eventually<string> {
    return this.texts.get(file.fileId) ?? this.read(file);
  }

  private async read(file: FileRecord): Promise<string> {
    const chunks: Buffer[] = [];
    let size = 0;
    for await (const chunk of await this.storage.getStream(file.storageKey)) {
      size += (chunk as Buffer).length;
      if (size > MAX_UPDATE_SIGNATURE_BYTES) break;
      chunks.push(chunk as Buffer);
    }
    const text = Buffer.concat(chunks).toString('utf8').trim();
    let served = text;
    try {
      served = parseSignature(text).tauriForm;
    } catch (error) {
      // Not a signature (an application without a key takes any file): served as it is, and the client refuses it.
      if (!(error instanceof MinisignFormatError)) throw error;
    }
    this.texts.set(file.fileId, served);
    return served;
  }
}
