/** MCP progress notifications for a large export (in-memory client with a progress token). */
import type { Progress } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import type { ToolContext } from '../../src/tools/define.js';
import { exportBomTool } from '../../src/tools/export-bom.js';
import { runTool } from '../../src/tools/run.js';
import { realDeps } from '../support/deps.js';
import { memoryClient } from '../support/mcp.js';
import { newKey } from './helpers.js';

describe('export_bom progress over MCP', () => {
  let deps: Deps;
  let mcp: Awaited<ReturnType<typeof memoryClient>>;
  beforeAll(async () => {
    deps = realDeps();
    mcp = await memoryClient(deps);
  });
  afterAll(async () => {
    await mcp.close();
    deps.close();
  });

  const bom = (n: number) => ({
    items: Array.from({ length: n }, (_, i) => ({ id: i % 10 === 0 ? 'ACT-001' : `OWN-${i}`, price: 0.1, quantity: 1 })),
    format: 'json' as const,
  });

  it('a 120-item BOM with a progress token: notifications arrive, monotonic, the last equals the total', async () => {
    const key = await newKey(deps, 'progress');
    const seen: Progress[] = [];
    const r = (await mcp.client.callTool({ name: 'export_bom', arguments: { ...bom(120), api_key: key } }, { onprogress: (p: Progress) => seen.push(p) })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect((r.structuredContent as { metadata: { total_items: number } }).metadata.total_items).toBe(120);
    expect(seen.length).toBeGreaterThanOrEqual(2);
    for (let i = 1; i < seen.length; i++) expect(seen[i].progress).toBeGreaterThan(seen[i - 1].progress);
    expect(seen.every((p) => p.total === 120)).toBe(true);
    expect(seen[seen.length - 1].progress).toBe(120);
    expect(seen.map((p) => p.progress)).toEqual([50, 100, 120]);
    expect(seen[seen.length - 1].message).toBe('BOM lines 120/120');
  });

  it('without onprogress the call still succeeds (no token, nothing sent)', async () => {
    const key = await newKey(deps, 'progress-none');
    const r = (await mcp.client.callTool({ name: 'export_bom', arguments: { ...bom(120), api_key: key } })) as CallToolResult;
    expect(r.isError).toBeFalsy();
    expect(await deps.accounts.balance(key)).toMatchObject({ credits: 99 });
  });
});

describe('export_bom when a progress notification cannot be delivered', () => {
  it('a failing progress send (client gone) does not fail the export nor leave an unhandled rejection', async () => {
    const deps = realDeps();
    try {
      const key = await newKey(deps, 'progress-broken');
      const sent: number[] = [];
      const ctx: ToolContext = {
        deps,
        surface: 'mcp-memory',
        credentials: [],
        clientAddress: null,
        idempotencyKey: null,
        progress: async (p) => {
          sent.push(p);
          throw new Error('Not connected');
        },
        setHeader: () => {},
      };
      const rejections: unknown[] = [];
      const onRejection = (reason: unknown) => rejections.push(reason);
      process.on('unhandledRejection', onRejection);
      try {
        const out = await runTool(exportBomTool, { items: Array.from({ length: 120 }, (_, i) => ({ id: `OWN-${i}`, price: 1, quantity: 1 })), format: 'json', api_key: key }, ctx);
        expect(out.ok).toBe(true);
        await new Promise((r) => setTimeout(r, 20));
      } finally {
        process.off('unhandledRejection', onRejection);
      }
      expect(sent).toEqual([50, 100, 120]);
      expect(rejections).toEqual([]);
      expect(await deps.accounts.balance(key)).toMatchObject({ credits: 99 });
    } finally {
      deps.close();
    }
  });
});
