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

export function loadOrCreateSecret(config: Pick<Config, 'dbPath' | 'secretFile' | 'secret'>, log?: Logger): string {
  if (config.secret) return checked(config.secret, 'ROBOT_PARTS_SECRET');
  const file = secretFilePath(config);
  if (file === null) return crypto.randomBytes(32).toString('hex');
  try {
    const text = fs.readFileSync(file, 'utf8').trim();
    const mode = fs.statSync(file).mode & 0o777;
    if (mode & 0o077) log?.warn('server secret file is readable by others; chmod 600 it', { file, mode: mode.toString(8) });
    return checked(text, file);
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
  }
  fs.mkdirSync(path.dirname(file), { recursive: true });
  const secret = crypto.randomBytes(32).toString('hex');
  try {
    // 'wx': never overwrite; a concurrent first start that wins the race is read back instead.
    fs.writeFileSync(file, `${secret}\n`, { flag: 'wx', mode: 0o600 });
    fs.chmodSync(file, 0o600); // the umask may have narrowed the mode, never widened it: make it exact
    log?.info('server secret created', { file });
    return secret;
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'EEXIST') return checked(fs.readFileSync(file, 'utf8').trim(), file);
    throw err;
  }
}
