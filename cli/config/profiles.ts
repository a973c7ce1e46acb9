import fs from 'node:fs';
import path from 'node:path';
import { UsageError } from '../errors';
import { configDirectory } from './paths';

/** A service and the key to use with it, as `bds login` wrote them. */
export interface Profile {
  url: string;
  apiKey: string;
}

interface ProfileFile {
  profiles: Record<string, Profile>;
}

export const DEFAULT_PROFILE = 'default';
/** Owner read and write only: the file holds API keys. */
const PROFILE_FILE_MODE = 0o600;

export const profileFilePath = (): string => path.join(configDirectory(), 'config.json');

function readProfileFile(): ProfileFile {
  const file = profileFilePath();
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return { profiles: {} };
    throw error;
  }
  try {
    const parsed = JSON.parse(text) as Partial<ProfileFile>;
    return { profiles: parsed.profiles && typeof parsed.profiles === 'object' ? parsed.profiles : {} };
  } catch {
    throw new UsageError(`${file} is not valid JSON: run bds login again, or delete it`);
  }
}

export function readProfile(name: string): Profile | undefined {
  const { profiles } = readProfileFile();
  return Object.hasOwn(profiles, name) ? profiles[name] : undefined;
}

export function saveProfile(name: string, profile: Profile): string {
  const contents = readProfileFile();
  contents.profiles[name] = profile;
  return writeProfileFile(contents);
}

/** Returns whether there was such a profile. */
export function removeProfile(name: string): boolean {
  const contents = readProfileFile();
  if (!Object.hasOwn(contents.profiles, name)) return false;
  delete contents.profiles[name];
  writeProfileFile(contents);
  return true;
}

/**
 * Written to a new file created with mode 0600 and renamed over the old one, so the key is never
 * readable by others, not even for a moment, and a crash never leaves half a file.
 */
function writeProfileFile(contents: ProfileFile): string {
  const file = profileFilePath();
  fs.mkdirSync(path.dirname(file), { recursive: true, mode: 0o700 });
  const temporary = `${file}.${process.pid}.tmp`;
  fs.writeFileSync(temporary, `${JSON.stringify(contents, null, 2)}\n`, { mode: PROFILE_FILE_MODE, flag: 'wx' });
  fs.renameSync(temporary, file);
  fs.chmodSync(file, PROFILE_FILE_MODE);
  return file;
}
