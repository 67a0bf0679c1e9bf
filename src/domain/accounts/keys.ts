/**
 * API keys and e-mail addresses. Neither is ever stored: only their SHA-256 digests (hex).
 * A key is `gtk_` + base64url of 24 random bytes (192 bits), shown once at registration.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { invalidInput } from '../errors.js';

export const KEY_PREFIX = 'gtk_';
/** Random bytes per key (>= 16 required; 24 gives 192 bits). */
export const KEY_RANDOM_BYTES = 24;

export function generateApiKey(): string {
  return KEY_PREFIX + crypto.randomBytes(KEY_RANDOM_BYTES).toString('base64url');
}

/** Shape check only (prefix + base64url body); says nothing about registration. */
export function looksLikeApiKey(key: string): boolean {
  return /^gtk_[A-Za-z0-9_-]{22,}$/.test(key);
}

export function sha256Hex(text: string): string {
  return crypto.createHash('sha256').update(text, 'utf8').digest('hex');
}

export function digestKey(key: string): string {
  return sha256Hex(key);
}

const emailSchema = z.email().max(254);

/** Trimmed and lower-cased. Throws invalid_input (field `email`) when it is not an e-mail address. */
export function normaliseEmail(email: unknown): string {
  if (typeof email !== 'string') throw invalidInput('email', 'must be a string');
  const normalised = email.trim().toLowerCase();
  if (!emailSchema.safeParse(normalised).success) throw invalidInput('email', 'must be a valid e-mail address');
  return normalised;
}

/** Digest of the normalised e-mail; validates first. */
export function digestEmail(email: unknown): string {
  return sha256Hex(normaliseEmail(email));
}

/** Constant-time equality of two hex digests (false when lengths differ). */
export function digestsEqual(a: string, b: string): boolean {
  const ba = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  if (ba.length !== bb.length) return false;
  return crypto.timingSafeEqual(ba, bb);
}
