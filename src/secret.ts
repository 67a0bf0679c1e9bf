/**
 * The server secret: keys the stored e-mail and API-key digests (HMAC) and the sandbox
 * pay-page tokens. From configuration (ROBOT_PARTS_SECRET), else from a file
 * (ROBOT_PARTS_SECRET_FILE, default `<db file>.secret`) that is created with mode 0600 on first
 * start. An in-memory database gets a random secret per process (nothing outlives it).
 */
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { Config } from './config.js';
import type { Logger } from './log.js';

export const SECRET_MIN_BYTES = 16;

export function secretFilePath(config: Pick<Config, 'dbPath' | 'secretFile'>): string | null {
  if (config.secretFile) return path.resolve(config.secretFile);
  return config.dbPath === ':memory:' ? null : path.resolve(`${config.dbPath}.secret`);
}

function checked(secret: string, where: string): string {
  if (Buffer.byteLength(secret, 'utf8') < SECRET_MIN_BYTES) throw new Error(`the server secret (${where}) must be at least ${SECRET_MIN_BYTES} bytes`);
  return secret;
}

export interface ServerSecret {
  value: string;
  /**
   * Writes a newly generated secret to its file (mode 0600, never overwriting); nothing when the
   * secret came from configuration or an existing file. Called by the store just before it first
   * records the secret's fingerprint: a start the store refuses (a database keyed with another
   * secret) writes no file.
   */
  persist(): void;
}

/** The configured secret, else the file's, else a new random one (written only by persist()). */
export function loadOrCreateSecret(config: Pick<Config, 'dbPath' | 'secretFile' | 'secret'>, log?: Logger): ServerSecret {
  const none = () => {};
  if (config.secret) return { value: checked(config.secret, 'ROBOT_PARTS_SECRET'), persist: none };
  const file = secretFilePath(config);
  if (file === null) return { value: crypto.randomBytes(32).toString('hex'), persist: none };
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    const mode = fs.statSync(file).mode & 0o777;
    if (mode & 0o077) log?.warn('server secret file is readable by others; chmod 600 it', { file, mode: mode.toString(8) });
    return { value: checked(text, file), persist: none };
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  const secret = crypto.randomBytes(32).toString('hex');
  let written = false;
  return {
    value: secret,
    persist: () => {
      if (written) return;
      fs.mkdirSync(path.dirname(file), { recursive: true });
      try {
        // 'wx': never overwrite.
        fs.writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
      } catch (err) {
        if ((err as NodeJS.ErrnoException).code !== 'EEXIST') throw err;
        // Another process started on the same new database at the same moment and wrote its own.
        if (fs.readFileSync(file, 'utf8').trim() !== secret) throw new Error(`${file} was created by another process starting at the same time; start again`);
      }
      fs.chmodSync(file, 0o600); // the umask may have narrowed the mode, never widened it: make it exact
      written = true;
      log?.info('server secret created', { file });
    },
  };
}
