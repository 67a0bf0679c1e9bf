/**
 * conformance/expected-failures*.yml: every entry says why it fails (a `# fixture:` the suite's
 * reference server has and ours does not, or a `# not offered:` capability), and what a label
 * claims is true: a capability said not offered is absent from the server's initialize answer and
 * its method is refused.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { Deps } from '../../src/deps.js';
import { testDeps } from '../support/deps.js';
import { memoryClient } from '../support/mcp.js';

const dir = path.resolve(import.meta.dirname, '../../conformance');
const entries = ['expected-failures.yml', 'expected-failures-stateless.yml'].flatMap((f) =>
  fs
    .readFileSync(path.join(dir, f), 'utf8')
    .split('\n')
    .filter((l) => /^\s+- /.test(l))
    .map((l) => {
      const m = /^\s+- (\S+)(?:\s+#\s*(.*))?$/.exec(l)!;
      return { file: f, id: m[1]!, label: m[2] ?? '' };
    }),
);

describe('expected-failure labels', () => {
  it('every entry has a reason of a known kind', () => {
    expect(entries.length).toBeGreaterThan(30);
    for (const e of entries) expect(e.label, `${e.file}: ${e.id}`).toMatch(/^(fixture: .*test[_:]|not offered: [a-z.]+ \(|stateless by design: )/);
  });

  it('no entry is listed twice', () => {
    expect(new Set(entries.map((e) => e.id)).size).toBe(entries.length);
  });

  it('resources-subscribe and -unsubscribe are labelled as the missing subscriptions, not as fixtures', () => {
    for (const id of ['resources-subscribe', 'resources-unsubscribe']) expect(entries.find((e) => e.id === id)!.label).toMatch(/^not offered: resources\.subscribe \(/);
  });
});

describe('what the "not offered" labels claim', () => {
  let deps: Deps;
  let client: Client;
  let close: () => Promise<void>;
  beforeAll(async () => {
    deps = testDeps();
    ({ client, close } = await memoryClient(deps));
  });
  afterAll(async () => {
    await close();
    deps.close();
  });

  it('the server declares resources without subscribe, and refuses resources/subscribe and /unsubscribe', async () => {
    const caps = client.getServerCapabilities()!;
    expect(caps.resources).toBeDefined();
    for (const e of entries.filter((x) => x.label.startsWith('not offered: '))) {
      const [area, flag] = /^not offered: ([a-z.]+)/.exec(e.label)![1]!.split('.');
      expect((caps as Record<string, Record<string, unknown> | undefined>)[area!]?.[flag!], e.id).toBeFalsy();
    }
    const { resources } = await client.listResources();
    const uri = resources[0]!.uri;
    for (const method of ['resources/subscribe', 'resources/unsubscribe']) {
      const err = await client.request({ method, params: { uri } } as never, undefined as never).then(
        () => null,
        (e: unknown) => e as { code?: number; message?: string },
      );
      expect(err, method).not.toBeNull();
      expect(`${err!.code} ${err!.message}`, method).toMatch(/-32601|not (found|supported)|does not support/i);
    }
  });
});
