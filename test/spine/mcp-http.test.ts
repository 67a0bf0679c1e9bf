/** MCP over Streamable HTTP with the SDK's own client, stateful and stateless. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { sampleEntities } from '../support/factory.js';
import { startTestServer } from '../support/http.js';
import { errorBody } from '../support/mcp.js';

async function connect(url: string, headers: Record<string, string> = {}) {
  const transport = new StreamableHTTPClientTransport(new URL(`${url}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: 'http-test', version: '1.0.0' });
  await client.connect(transport);
  return { client, transport };
}

describe('stateful Streamable HTTP', () => {
  let srv: Awaited<ReturnType<typeof startTestServer>>;
  beforeAll(async () => {
    srv = await startTestServer(sampleEntities());
  });
  afterAll(async () => {
    await srv.stop();
  });

  it('lists tools and calls search_parts with structured content', async () => {
    const { client, transport } = await connect(srv.url);
    expect(transport.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    const tools = await client.listTools();
    expect(tools.tools.map((t) => t.name)).toContain('search_parts');
    const r = (await client.callTool({ name: 'search_parts', arguments: { q: 'servo acme' } })) as CallToolResult;
    expect((r.structuredContent as { data: { id: string }[] }).data.map((h) => h.id)).toEqual(['ACT-001']);
    const miss = (await client.callTool({ name: 'get_part', arguments: { id: 'ACT-011' } })) as CallToolResult;
    expect(errorBody(miss).code).toBe('not_found');
    await transport.terminateSession();
    await client.close();
  });

  it('DELETE ends the session; the id is then unknown (404)', async () => {
    const { client, transport } = await connect(srv.url);
    const sid = transport.sessionId!;
    await transport.terminateSession();
    const r = await fetch(`${srv.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sid, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 5, method: 'tools/list' }),
    });
    expect(r.status).toBe(404);
    await client.close();
  });

  it('rejects a non-initialize request without a session', async () => {
    const r = await fetch(`${srv.url}/mcp`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(r.status).toBe(400);
  });

  it('reads resources and completes their variables', async () => {
    const { client, transport } = await connect(srv.url);
    const res = await client.readResource({ uri: 'robotparts://parts/act-001' });
    const body = JSON.parse((res.contents[0] as { text: string }).text) as { entity: { id: string } };
    expect(body.entity.id).toBe('ACT-001');
    const comp = await client.complete({ ref: { type: 'ref/resource', uri: 'robotparts://parts/{id}' }, argument: { name: 'id', value: 'act-00' } });
    expect(comp.completion.values).toEqual(['ACT-001', 'ACT-002', 'ACT-003', 'ACT-004']);
    const cat = await client.complete({ ref: { type: 'ref/resource', uri: 'robotparts://catalogue/{category}' }, argument: { name: 'category', value: 'se' } });
    expect(cat.completion.values).toEqual(['sensors']);
    const list = await client.readResource({ uri: 'robotparts://catalogue/sensors' });
    expect(JSON.parse((list.contents[0] as { text: string }).text).count).toBe(2);
    await transport.terminateSession();
    await client.close();
  });
});

describe('stateless Streamable HTTP', () => {
  it('serves each request without a session', async () => {
    const srv = await startTestServer(sampleEntities(), { stateless: true });
    try {
      const { client, transport } = await connect(srv.url);
      expect(transport.sessionId).toBeUndefined();
      const r = (await client.callTool({ name: 'search_parts', arguments: { q: 'orin' } })) as CallToolResult;
      expect((r.structuredContent as { data: { id: string }[] }).data[0].id).toBe('CHIP-001');
      await client.close();
    } finally {
      await srv.stop();
    }
  });
});

describe('stateless Streamable HTTP: answer framing', () => {
  it('a call without a progress token is answered with one JSON body; with a token, as an SSE stream (so notifications can reach it)', async () => {
    const srv = await startTestServer(sampleEntities(), { stateless: true });
    try {
      const post = (params: Record<string, unknown>) =>
        fetch(`${srv.url}/mcp`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-protocol-version': '2025-11-25' },
          body: JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params }),
        });
      const plain = await post({ name: 'search_parts', arguments: { q: 'orin' } });
      expect(plain.status).toBe(200);
      expect(plain.headers.get('content-type')).toMatch(/^application\/json/);
      const msg = (await plain.json()) as { id: number; result: { structuredContent: { data: { id: string }[] } } };
      expect(msg.id).toBe(7);
      expect(msg.result.structuredContent.data[0].id).toBe('CHIP-001');

      const streamed = await post({ name: 'search_parts', arguments: { q: 'orin' }, _meta: { progressToken: 'p1' } });
      expect(streamed.status).toBe(200);
      expect(streamed.headers.get('content-type')).toMatch(/^text\/event-stream/);
      const text = await streamed.text();
      const data = text.split('\n').filter((l) => l.startsWith('data:')).map((l) => JSON.parse(l.slice(5)) as { id?: number; result?: { structuredContent: { data: { id: string }[] } } });
      expect(data.find((m) => m.id === 7)?.result?.structuredContent.data[0].id).toBe('CHIP-001');
    } finally {
      await srv.stop();
    }
  });
});
