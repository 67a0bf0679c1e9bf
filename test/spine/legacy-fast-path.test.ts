/**
 * The fast 2025-era check in front of the SDK's isLegacyRequest (src/http/mcp-serve.ts): whenever it
 * says "legacy", the SDK says so too, over requests of every shape, header and envelope.
 */
import { describe, expect, it } from 'vitest';
import { isLegacyRequest, PROTOCOL_VERSION_META_KEY } from '@modelcontextprotocol/server';
import { plainLegacyRequest } from '../../src/http/mcp-serve.js';

const claim = { [PROTOCOL_VERSION_META_KEY]: '2026-07-28' };
const bodies: unknown[] = [
  { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'search_parts', arguments: { q: 'servo' } } },
  { jsonrpc: '2.0', id: 'a', method: 'tools/list' },
  { jsonrpc: '2.0', id: 2, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'x', version: '1' } } },
  { jsonrpc: '2.0', id: 3, method: 'tools/list', params: { _meta: claim } },
  { jsonrpc: '2.0', id: 4, method: 'tools/call', params: { name: 'x', _meta: { ...claim, progressToken: 1 } } },
  { jsonrpc: '2.0', id: 5, method: 'tools/call', params: { _meta: { progressToken: 7 } } },
  { jsonrpc: '2.0', method: 'notifications/initialized' },
  { jsonrpc: '2.0', id: 6, result: {} },
  [{ jsonrpc: '2.0', id: 7, method: 'tools/list' }],
  { jsonrpc: '2.0', id: 1.5, method: 'tools/list' },
  { jsonrpc: '2.0', id: null, method: 'tools/list' },
  { jsonrpc: '2.0', id: 8, method: 'tools/list', params: [1] },
  { jsonrpc: '1.0', id: 9, method: 'tools/list' },
  { id: 10, method: 'tools/list' },
  { jsonrpc: '2.0', id: 11, method: 5 },
  'text',
  null,
];
const headers: (string | undefined)[] = [undefined, '2025-11-25', '2025-06-18', ' 2025-03-26 ', '2026-07-28', '2099-01-01', 'garbage'];

describe('plainLegacyRequest agrees with isLegacyRequest whenever it answers legacy', () => {
  it('over bodies x headers', async () => {
    let fast = 0;
    for (const body of bodies) {
      for (const h of headers) {
        if (!plainLegacyRequest(h, body)) continue;
        fast++;
        const request = new Request('http://127.0.0.1/mcp', {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(h === undefined ? {} : { 'mcp-protocol-version': h }) },
          body: JSON.stringify(body),
        });
        expect(await isLegacyRequest(request, body), `${JSON.stringify(body)} with ${h}`).toBe(true);
      }
    }
    expect(fast).toBeGreaterThan(10); // the common requests do take the fast path
  });
});
