/**
 * API keys and e-mail addresses. Neither is ever stored: only keyed digests (KeyedDigests below:
 * HMAC-SHA256 under the server secret of their SHA-256 digest).
 * A key is `gtk_` + base64url of 24 random bytes (192 bits), shown once at registration.
 */
import crypto from 'node:crypto';
import { z } from 'zod';
import { invalidInput } from '../shared/errors.js';

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

// ------------------------------------------------------------------ mailboxes and keyed digests

/**
 * What counts as one mailbox for "one free key per e-mail address". Each rule is a way one
 * mailbox receives mail under several spellings:
 * - `plus-tags`:  `ada+anything@x` is `ada@x` (sub-addressing, honoured by most providers);
 * - `gmail-dots`: dots in the local part are ignored at gmail.com / googlemail.com;
 * - `googlemail`: googlemail.com is gmail.com;
 * - `all-dots`:   dots in the local part are ignored at every domain (strict; some providers
 *                 deliver `a.b@` and `ab@` to different people).
 */
export const MAILBOX_RULES = ['plus-tags', 'gmail-dots', 'googlemail', 'all-dots'] as const;
export type MailboxRule = (typeof MAILBOX_RULES)[number];
export const DEFAULT_MAILBOX_RULES: readonly MailboxRule[] = ['plus-tags', 'gmail-dots', 'googlemail'];

/** Validates a configured rule list ('none' or empty = exact addresses). Throws naming the bad rule. */
export function parseMailboxRules(rules: readonly string[]): MailboxRule[] {
  const out: MailboxRule[] = [];
  for (const r of rules.map((x) => x.trim().toLowerCase()).filter(Boolean)) {
    if (r === 'none') continue;
    if (!(MAILBOX_RULES as readonly string[]).includes(r)) throw new Error(`unknown mailbox rule "${r}" (use ${MAILBOX_RULES.join(', ')} or none)`);
    out.push(r as MailboxRule);
  }
  return out;
}

const GMAIL_DOMAINS = new Set(['gmail.com', 'googlemail.com']);

/** The canonical mailbox of an address under the rules (validates first, like normaliseEmail). */
export function canonicalMailbox(email: unknown, rules: readonly MailboxRule[] = DEFAULT_MAILBOX_RULES): string {
  const normalised = normaliseEmail(email);
  const at = normalised.lastIndexOf('@');
  let local = normalised.slice(0, at);
  let domain = normalised.slice(at + 1);
  if (rules.includes('googlemail') && domain === 'googlemail.com') domain = 'gmail.com';
  if (rules.includes('plus-tags')) {
    const plus = local.indexOf('+');
    if (plus > 0) local = local.slice(0, plus);
  }
  if (rules.includes('all-dots') || (rules.includes('gmail-dots') && GMAIL_DOMAINS.has(domain))) {
    const undotted = local.replace(/\./g, '');
    if (undotted !== '') local = undotted;
  }
  return `${local}@${domain}`;
}

/**
 * Digests as stored: HMAC-SHA256 under the server secret of the plain SHA-256 digest. Keyed,
 * so a copy of the database alone cannot confirm a guessed address or key; layered over the
 * SHA-256 digest, so rows written before the secret existed are re-keyed without the clear text
 * (`rekey`).
 */
export class KeyedDigests {
  private readonly secret: Buffer;

  constructor(
    secret: string | Buffer,
    private readonly mailboxRules: readonly MailboxRule[] = DEFAULT_MAILBOX_RULES,
  ) {
    this.secret = Buffer.isBuffer(secret) ? secret : Buffer.from(secret, 'utf8');
    if (this.secret.length < 16) throw new Error('the server secret must be at least 16 bytes');
  }

  /** A legacy (plain SHA-256 hex) digest -> the stored keyed digest. */
  rekey(legacyHex: string): string {
    return crypto.createHmac('sha256', this.secret).update(legacyHex, 'utf8').digest('hex');
  }

  key(apiKey: string): string {
    return this.rekey(digestKey(apiKey));
  }

  /** Digest of the address's canonical mailbox; validates first (invalid_input, field email). */
  email(email: unknown): string {
    return this.rekey(sha256Hex(canonicalMailbox(email, this.mailboxRules)));
  }

  /** Any other identifier kept at rest (e.g. a rate-limit subject's client address). */
  other(label: string, value: string): string {
    return crypto.createHmac('sha256', this.secret).update(`${label}\u0000${value}`, 'utf8').digest('hex');
  }

  /** Identifies the secret without revealing it (stored to catch a database opened with another secret). */
  fingerprint(): string {
    return this.other('fingerprint', 'robot-parts-mcp digest secret');
  }

  /** Unforgeable token bound to one payment order (the sandbox pay page requires it). */
  orderToken(orderId: string): string {
    return crypto.createHmac('sha256', this.secret).update(`pay\u0000${orderId}`, 'utf8').digest('base64url').slice(0, 32);
  }
}
