import { describe, expect, it } from 'vitest';
import crypto from 'node:crypto';
import {
  digestEmail,
  digestKey,
  digestsEqual,
  generateApiKey,
  looksLikeApiKey,
  normaliseEmail,
} from '../../src/domain/accounts/keys.js';
import { parseBearer, requireApiKey, resolveApiKey } from '../../src/domain/accounts/credentials.js';
import { DomainError } from '../../src/domain/shared/errors.js';

function codeOf(fn: () => unknown): string | undefined {
  try {
    fn();
  } catch (e) {
    return e instanceof DomainError ? e.code : 'not-a-domain-error';
  }
  return undefined;
}

describe('api keys', () => {
  it('is gtk_ + base64url of at least 16 random bytes, different every time', () => {
    const keys = new Set(Array.from({ length: 200 }, generateApiKey));
    expect(keys.size).toBe(200);
    for (const k of keys) {
      expect(k.startsWith('gtk_')).toBe(true);
      const body = Buffer.from(k.slice(4), 'base64url');
      expect(body.length).toBeGreaterThanOrEqual(16);
      expect(body.toString('base64url')).toBe(k.slice(4));
      expect(looksLikeApiKey(k)).toBe(true);
    }
  });

  it('digests with SHA-256 (hex)', () => {
    expect(digestKey('gtk_abc')).toBe(crypto.createHash('sha256').update('gtk_abc').digest('hex'));
    expect(digestKey('gtk_abc')).toHaveLength(64);
  });

  it('rejects malformed key shapes', () => {
    expect(looksLikeApiKey('sk_live_123')).toBe(false);
    expect(looksLikeApiKey('gtk_')).toBe(false);
    expect(looksLikeApiKey('gtk_short')).toBe(false);
  });

  it('compares digests in constant time, false on length mismatch', () => {
    expect(digestsEqual('ab'.repeat(32), 'ab'.repeat(32))).toBe(true);
    expect(digestsEqual('ab'.repeat(32), 'ac'.repeat(32))).toBe(false);
    expect(digestsEqual('ab', 'abc')).toBe(false);
  });
});

describe('e-mail', () => {
  it('normalises by trimming and lower-casing before digesting', () => {
    expect(normaliseEmail('  Ada@Example.COM ')).toBe('ada@example.com');
    expect(digestEmail('  Ada@Example.COM ')).toBe(digestEmail('ada@example.com'));
    expect(digestEmail('ada@example.com')).toBe(crypto.createHash('sha256').update('ada@example.com').digest('hex'));
  });

  it('rejects non-addresses with invalid_input naming the field', () => {
    for (const bad of ['', 'no-at-sign', 'a@', '@b.com', 'a b@c.com', 42, null]) {
      try {
        normaliseEmail(bad);
        expect.unreachable(`accepted ${String(bad)}`);
      } catch (e) {
        expect((e as DomainError).code).toBe('invalid_input');
        expect((e as DomainError).details.field).toBe('email');
      }
    }
  });
});

describe('resolveApiKey', () => {
  const K1 = 'gtk_' + 'a'.repeat(32);
  const K2 = 'gtk_' + 'b'.repeat(32);

  it('returns null when no key is presented (blank values do not count)', () => {
    expect(resolveApiKey([])).toBeNull();
    expect(resolveApiKey([{ source: 'authorization', key: '  ' }], '')).toBeNull();
  });

  it('accepts one key from any source, or the argument alone', () => {
    expect(resolveApiKey([{ source: 'x-api-key', key: K1 }])).toBe(K1);
    expect(resolveApiKey([], K1)).toBe(K1);
  });

  it('accepts several sources that agree', () => {
    expect(
      resolveApiKey(
        [
          { source: 'authorization', key: K1 },
          { source: 'query:key', key: K1 },
          { source: 'x-api-key', key: ` ${K1}` },
        ],
        K1,
      ),
    ).toBe(K1);
  });

  it('refuses differing keys with conflicting_credentials naming the sources', () => {
    try {
      resolveApiKey([{ source: 'authorization', key: K1 }, { source: 'x-api-key', key: K1 }], K2);
      expect.unreachable();
    } catch (e) {
      const err = e as DomainError;
      expect(err.code).toBe('conflicting_credentials');
      expect(err.status).toBe(400);
      expect(err.details.sources).toEqual(['authorization', 'x-api-key', 'argument:api_key']);
      expect(err.message).toContain('authorization');
      expect(err.message).toContain('argument:api_key');
    }
    expect(codeOf(() => resolveApiKey([{ source: 'env:ROBOT_PARTS_API_KEY', key: K1 }, { source: 'body:api_key', key: K2 }]))).toBe(
      'conflicting_credentials',
    );
  });

  it('requireApiKey: missing -> missing_credentials (401)', () => {
    expect(codeOf(() => requireApiKey([]))).toBe('missing_credentials');
    expect(requireApiKey([{ source: 'query:key', key: K1 }])).toBe(K1);
  });

  it('parses Bearer tokens case-insensitively', () => {
    expect(parseBearer(`Bearer ${K1}`)).toBe(K1);
    expect(parseBearer(`bearer   ${K1} `)).toBe(K1);
    expect(parseBearer(`Basic abc`)).toBeNull();
    expect(parseBearer('Bearer ')).toBeNull();
    expect(parseBearer(undefined)).toBeNull();
  });
});
