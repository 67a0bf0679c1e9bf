/**
 * Webhook signatures (sandbox protocol, also usable by any gateway adapter that lets us
 * choose the scheme):
 *
 *   X-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256(secret, `${t}.${rawBody}`)>
 *
 * Several v1 entries may be sent (secret rotation); one match suffices. The HMAC is compared
 * in constant time, and the timestamp must lie within 5 minutes of the receiver's clock
 * (either direction), which bounds replays of a captured request to that window; the order's
 * pending -> paid transition makes replays inside it harmless.
 */
import crypto from 'node:crypto';
import { DomainError } from '../shared/errors.js';

export const SIGNATURE_HEADER = 'X-Signature';
export const SIGNATURE_TOLERANCE_SECONDS = 300;

export function computeSignature(secret: string, timestamp: number, rawBody: string): string {
  return crypto.createHmac('sha256', secret).update(`${timestamp}.${rawBody}`, 'utf8').digest('hex');
}

/** The X-Signature header value for a body, as the sender computes it. */
export function signPayload(secret: string, rawBody: string, now: Date = new Date()): string {
  const t = Math.floor(now.getTime() / 1000);
  return `t=${t},v1=${computeSignature(secret, t, rawBody)}`;
}

function badSignature(message: string): DomainError {
  return new DomainError('bad_signature', message);
}

/**
 * Checks an X-Signature header value against the raw body. Throws bad_signature (401) when
 * missing, malformed, not matching, or outside the tolerance. Returns the signed timestamp.
 */
export function verifySignature(
  secret: string,
  header: string | null | undefined,
  rawBody: string,
  now: Date,
  toleranceSeconds = SIGNATURE_TOLERANCE_SECONDS,
): number {
  if (!header) throw badSignature(`Missing ${SIGNATURE_HEADER} header`);
  let timestamp: number | null = null;
  const candidates: string[] = [];
  for (const part of header.split(',')) {
    const eq = part.indexOf('=');
    if (eq < 0) continue;
    const k = part.slice(0, eq).trim();
    const v = part.slice(eq + 1).trim();
    if (k === 't' && /^\d{1,12}$/.test(v)) timestamp = Number(v);
    else if (k === 'v1' && /^[0-9a-f]{64}$/i.test(v)) candidates.push(v.toLowerCase());
  }
  if (timestamp === null || candidates.length === 0) {
    throw badSignature(`Malformed ${SIGNATURE_HEADER} header: expected t=<unix seconds>,v1=<hex>`);
  }
  const expected = Buffer.from(computeSignature(secret, timestamp, rawBody), 'hex');
  let match = false;
  for (const c of candidates) {
    // every candidate is compared (no early exit), each in constant time
    if (crypto.timingSafeEqual(Buffer.from(c, 'hex'), expected)) match = true;
  }
  if (!match) throw badSignature('Webhook signature does not match');
  const skew = Math.floor(now.getTime() / 1000) - timestamp;
  if (skew > toleranceSeconds) throw badSignature('Webhook timestamp is too old');
  if (skew < -toleranceSeconds) throw badSignature('Webhook timestamp is in the future');
  return timestamp;
}
