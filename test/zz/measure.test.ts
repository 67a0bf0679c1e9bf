import { it } from 'vitest';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { realDeps } from '../support/deps.js';
import { memoryClient } from '../support/mcp.js';
import { newKey } from '../bom-e2e/helpers.js';

async function readAll(client: any, uri: string) {
  let next: string | null = uri; const sizes: number[] = [];
  while (next) { const rr: any = await client.readResource({ uri: next }); sizes.push(JSON.stringify(rr).length); next = rr.contents[0]._meta?.['robotparts/page']?.next_uri ?? null; }
  return sizes;
}
it('measure', async () => {
  const deps = realDeps({ jobTimeMs: 600_000 });
  const mcp = await memoryClient(deps);
  const key = await newKey(deps, 'm');
  const items = Array.from({ length: 500 }, (_, i) => ({ id: `OWN-LINE-${String(i + 1).padStart(4, '0')}`, name: `Plain part number ${i + 1} with a longer descriptive name`, price: 1234.56 + i, quantity: 1 + (i % 9) }));
  for (const format of ['csv', 'json']) {
    const r = (await mcp.client.callTool({ name: 'export_bom', arguments: { items, format, api_key: key, project_name: 'P' } })) as CallToolResult;
    const text = (r.content.find((c) => c.type === 'text') as { text: string }).text;
    console.log(format, 'text', text.length, 'structured', JSON.stringify(r.structuredContent).length, 'whole', JSON.stringify(r).length, 'links', JSON.stringify(r.content.filter((c) => c.type !== 'text')), text.split('\n')[0]);
    const link = r.content.find((c) => c.type === 'resource_link') as { uri: string } | undefined;
    if (link) console.log('read', await readAll(mcp.client, link.uri));
  }
  const ids = (await deps.catalogue.list({ includeQuarantine: true, limit: 100_000 })).items.map((e) => e.id).slice(0, 500);
  for (const format of ['csv', 'json']) {
  const r = (await mcp.client.callTool({ name: 'export_bom', arguments: { items: ids.map((id) => ({ id, quantity: 2 })), format, api_key: key } })) as CallToolResult;
  console.log('catalogue', format, JSON.stringify(r).length, JSON.stringify(r.structuredContent).length);
    const link = r.content.find((c) => c.type === 'resource_link') as { uri: string } | undefined;
    if (link) console.log('read', await readAll(mcp.client, link.uri));
  }
  let t = Date.now();
  const p = (await mcp.client.callTool({ name: 'design_adapter_plate', arguments: { a: 'ISO9409-1-A50-4-M6', b: 'ISO9409-1-A63-6-M6' } })) as CallToolResult;
  console.log('plate ms', Date.now() - t, JSON.stringify(p).length, JSON.stringify(p.content.filter((c) => c.type !== 'text')));
  for (const l of p.content.filter((c) => c.type === 'resource_link') as { uri: string }[]) {
    t = Date.now();
    console.log('read', l.uri, await readAll(mcp.client, l.uri), Date.now() - t);
  }
  await mcp.close(); deps.close();
}, 600_000);
