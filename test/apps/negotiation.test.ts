/**
 * MCP Apps negotiation (src/mcp/apps.ts): a client that declares io.modelcontextprotocol/ui with
 * the text/html;profile=mcp-app profile sees the five tools with a view carrying
 * _meta.ui.resourceUri and the ui:// views in resources/list; a client without it sees tools/list
 * and resources/list exactly as before (the committed snapshot) — in both protocol eras. Answers
 * are the same for both. Every view reads as self-contained MCP Apps HTML within its budget.
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { realDeps } from '../support/deps.js';
import { startRealServer } from '../support/http.js';
import { eraOptions } from '../support/mcp.js';
import { appsClient, UI_EXTENSION } from './support.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const SNAPSHOT = JSON.parse(fs.readFileSync(path.join(ROOT, 'test/__snapshots__/tools-list.json'), 'utf8'));
const VIEWED = { extract_robot_parts: 'robot', design_adapter_plate: 'plate', compare_parts: 'compare', check_bom: 'bom', size_actuators: 'size' } as Record<string, string>;
const uriOf = (view: string) => `ui://robot-parts/${view}`;
/** Characters of the tools/list result (test/spine/tools-list-budget.test.ts counts the same way). */
const TOOLS_LIST_BUDGET = 100_000;
/** Every resource read's limit (product.md, "Resources"), the ui:// views included (the 3D views draw with src/views/lite3d.js, not three.js). */
const READ_LIMIT = 80_000;

describe.each(['legacy', 'modern'] as const)('MCP Apps negotiation, %s era', (era) => {
  let deps: Deps;
  let plain: Awaited<ReturnType<typeof appsClient>>;
  let apps: Awaited<ReturnType<typeof appsClient>>;
  beforeAll(async () => {
    deps = realDeps();
    plain = await appsClient(deps, { era });
    apps = await appsClient(deps, { era, extension: true });
  });
  afterAll(async () => {
    await plain.close();
    await apps.close();
    deps.close();
  });

  it('without the extension: tools/list is the committed snapshot, no _meta, no ui:// resource', async () => {
    const { tools } = await plain.client.listTools();
    const snap = (SNAPSHOT.tools ?? SNAPSHOT) as unknown[];
    expect(JSON.parse(JSON.stringify(tools))).toEqual(snap);
    expect(tools.filter((t) => t._meta)).toEqual([]);
    const { resources } = await plain.client.listResources();
    expect(resources.filter((r) => r.uri.startsWith('ui://'))).toEqual([]);
  });

  it('with the extension: the same entries, the five tools with a view carrying _meta.ui.resourceUri; both within the tools/list budget', async () => {
    const without = (await plain.client.listTools()).tools;
    const withExt = (await apps.client.listTools()).tools;
    expect(withExt.map((t) => t.name)).toEqual(without.map((t) => t.name));
    for (const [i, t] of withExt.entries()) {
      const { _meta, ...rest } = t;
      expect(rest, t.name).toEqual(without[i]);
      if (VIEWED[t.name]) {
        expect((_meta as { ui?: { resourceUri?: string } }).ui?.resourceUri, t.name).toBe(uriOf(VIEWED[t.name]!));
        expect(_meta!['ui/resourceUri'], t.name).toBe(uriOf(VIEWED[t.name]!)); // the older key registerAppTool also writes
      } else expect(_meta, t.name).toBeUndefined();
    }
    const sizes = [JSON.stringify({ tools: without }).length, JSON.stringify({ tools: withExt }).length];
    console.log(`tools/list (${era}): ${sizes[0]} characters without MCP Apps, ${sizes[1]} with`);
    for (const s of sizes) expect(s).toBeLessThanOrEqual(TOOLS_LIST_BUDGET);
  });

  it('with the extension: resources/list adds the five views (HTML of the MCP Apps profile, CSP declared with no domain)', async () => {
    const before = (await plain.client.listResources()).resources;
    const after = (await apps.client.listResources()).resources;
    expect(after.slice(0, before.length)).toEqual(before);
    const views = after.slice(before.length);
    expect(views.map((v) => v.uri).sort()).toEqual(Object.values(VIEWED).map(uriOf).sort());
    for (const v of views) {
      expect(v.mimeType).toBe('text/html;profile=mcp-app');
      expect(v._meta).toEqual({ ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } });
    }
  });

  it('every view reads as one self-contained HTML document: inline script and style only, a CSP meta element, within its budget', async () => {
    const sizes: string[] = [];
    for (const view of Object.values(VIEWED)) {
      const r = await plain.client.readResource({ uri: uriOf(view) }); // read by URI whatever the client declared
      expect(r.contents).toHaveLength(1);
      const c = r.contents[0] as { uri: string; mimeType: string; text: string; _meta?: unknown };
      expect(c.mimeType).toBe('text/html;profile=mcp-app');
      expect(c._meta).toEqual({ ui: { csp: { connectDomains: [], resourceDomains: [] }, prefersBorder: true } });
      expect(c.text.startsWith('<!doctype html>')).toBe(true);
      // Nothing loaded from elsewhere: no external script, stylesheet, image or frame element.
      expect(c.text).not.toMatch(/<(script|img|iframe|link)\b[^>]*\s(src|href)=/i);
      expect((c.text.match(/<script>/g) ?? []).length).toBe(1);
      const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(c.text)?.[1];
      expect(csp).toContain("default-src 'none'");
      expect(csp).toContain("connect-src 'none'");
      expect(csp).not.toMatch(/https?:/);
      const json = JSON.stringify(r).length;
      sizes.push(`${view} ${json}`);
      expect(json, view).toBeLessThanOrEqual(READ_LIMIT);
    }
    console.log(`ui:// reads (characters of the JSON result): ${sizes.join(', ')}`);
  });

  it('an unknown ui:// view is a resource-not-found error naming the views', async () => {
    const err = await apps.client.readResource({ uri: 'ui://robot-parts/nope' }).catch((e: Error) => e);
    expect(err).toBeInstanceOf(Error);
    expect((err as Error).message).toContain('ui://robot-parts/robot');
  });

  it('answers are the same with and without the extension', async () => {
    const args = { name: 'compare_parts', arguments: { ids: ['ACT-001', 'ACT-006'] } };
    const a = await plain.client.callTool(args);
    const b = await apps.client.callTool(args);
    expect(a.isError).toBeFalsy();
    expect(b).toEqual(a);
  });
});

describe.each(['legacy', 'modern'] as const)('MCP Apps negotiation over Streamable HTTP, %s era', (era) => {
  let srv: Awaited<ReturnType<typeof startRealServer>>;
  beforeAll(async () => {
    srv = await startRealServer();
  });
  afterAll(async () => {
    await srv.stop();
  });

  it('only the client that declares the extension sees the views', async () => {
    const seen: Record<string, string[]> = {};
    for (const extension of [false, true]) {
      const client = new Client({ name: 'apps-http', version: '1.0.0' }, { capabilities: extension ? { extensions: UI_EXTENSION } : {}, ...eraOptions(era) } as never);
      await client.connect(new StreamableHTTPClientTransport(new URL(`${srv.url}/mcp`)));
      try {
        const { tools } = await client.listTools();
        seen[String(extension)] = tools.filter((t) => t._meta).map((t) => `${t.name} ${(t._meta!.ui as { resourceUri: string }).resourceUri}`);
        const views = (await client.listResources()).resources.filter((r) => r.uri.startsWith('ui://'));
        expect(views.length).toBe(extension ? Object.keys(VIEWED).length : 0);
      } finally {
        await client.close();
      }
    }
    expect(seen.false).toEqual([]);
    expect(seen.true!.sort()).toEqual(Object.entries(VIEWED).map(([t, v]) => `${t} ${uriOf(v)}`).sort());
  });
});
