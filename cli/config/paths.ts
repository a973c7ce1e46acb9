import os from 'node:os';
import path from 'node:path';

/**
 * Where the CLI keeps things of its own, by the platform's rules: the profiles under the user's
 * configuration directory, resume records of uploads under the state directory.
 */
export function configDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_CONFIG_HOME) return path.join(env.XDG_CONFIG_HOME, 'bds');
  if (process.platform === 'win32' && env.APPDATA) return path.join(env.APPDATA, 'bds');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'bds');
  return path.join(os.homedir(), '.config', 'bds');
}

export function stateDirectory(env: NodeJS.ProcessEnv = process.env): string {
  if (env.XDG_STATE_HOME) return path.join(env.XDG_STATE_HOME, 'bds');
  if (process.platform === 'win32' && env.LOCALAPPDATA) return path.join(env.LOCALAPPDATA, 'bds');
  if (process.platform === 'darwin') return path.join(os.homedir(), 'Library', 'Application Support', 'bds', 'state');
  return path.join(os.homedir(), '.local', 'state', 'bds');
}
