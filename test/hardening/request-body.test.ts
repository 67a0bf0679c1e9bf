/**
 * Request bodies over real HTTP: a body of declared length is read straight from node's request
 * (src/http/common.ts requestText), a chunked one through the fetch Request; both give the same
 * answers, a UTF-8 byte-order mark is dropped as the fetch Request drops it, and the body limit
 * holds for both (declared length above it: 413 before the body is read; chunked: 413 when the
 * bytes pass it).
 */
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startRealServer } from '../support/http.js';

const ids = (JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../data/catalogue/entities.json'), 'utf8')) as { entities: { id: string }[] }).entities
  .slice(0, 2)
  .map((e) => e.id);

let srv: Awaited<ReturnType<typeof startRealServer>>;
beforeAll(async () => {
  srv = await startRealServer();
});
afterAll(() => srv.stop());

interface Sent {
  chunks: Buffer[];
  /** Content-Length to declare; omitted: chunked transfer encoding. */
  length?: number;
}

function post(p: string, { chunks, length }: Sent): Promise<{ status: number; body: string }> {
  return new Promise((resolve, reject) => {
    const headers: Record<string, string | number> = { 'content-type': 'application/json' };
    if (length !== undefined) headers['content-length'] = length;
    const req = http.request(`${srv.url}${p}`, { method: 'POST', headers, agent: false }, (res) => {
      const got: Buffer[] = [];
      res.on('data', (d: Buffer) => got.push(d));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: Buffer.concat(got).toString('utf8') }));
    });
    req.on('error', (err) => ((err as NodeJS.ErrnoException).code === 'ECONNRESET' || (err as NodeJS.ErrnoException).code === 'EPIPE' ? undefined : reject(err)));
    for (const c of chunks) req.write(c);
    req.end();
  });
}

const json = Buffer.from(JSON.stringify({ ids }), 'utf8');
const BOM = Buffer.from([0xef, 0xbb, 0xbf]);

describe('request bodies', () => {
  it('declared length, chunked, and with a byte-order mark: the same comparison', async () => {
    const plain = await post('/api/compare', { chunks: [json], length: json.length });
    expect(plain.status).toBe(200);
    const parts = (JSON.parse(plain.body) as { parts: { id: string }[] }).parts.map((p) => p.id);
    expect(parts).toEqual(ids);
    const chunked = await post('/api/compare', { chunks: [json.subarray(0, 5), json.subarray(5)] });
    expect(chunked).toEqual(plain);
    const bom = await post('/api/compare', { chunks: [Buffer.concat([BOM, json])], length: json.length + 3 });
    expect(bom).toEqual(plain);
  });

  it('a body that is not JSON is invalid_input naming the body, read either way', async () => {
    const bad = Buffer.from('{"ids": [', 'utf8');
    for (const sent of [{ chunks: [bad], length: bad.length }, { chunks: [bad] }]) {
      const r = await post('/api/compare', sent);
      expect(r.status).toBe(400);
      expect(JSON.parse(r.body)).toMatchObject({ code: 'invalid_input', field: 'body' });
    }
  });

  it('above the limit: 413 payload_too_large for a declared length and for a chunked body', async () => {
    const limit = srv.deps.config.bodyLimitBytes;
    const declared = await post('/api/compare', { chunks: [json], length: limit + 1 });
    expect(declared.status).toBe(413);
    expect(JSON.parse(declared.body)).toMatchObject({ code: 'payload_too_large', limit_bytes: limit });
    const filler = Buffer.alloc(limit + 10, 0x20);
    const chunked = await post('/api/compare', { chunks: [filler.subarray(0, 1000), filler.subarray(1000)] });
    expect(chunked.status).toBe(413);
    expect(JSON.parse(chunked.body)).toMatchObject({ code: 'payload_too_large', limit_bytes: limit });
  });

  it('MCP: an initialize of declared length and a chunked one both open a session', async () => {
    const init = Buffer.from(JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } }));
    const mcp = (sent: Sent) =>
      new Promise<{ status: number; sid: string | undefined }>((resolve, reject) => {
        const headers: Record<string, string | number> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
        if (sent.length !== undefined) headers['content-length'] = sent.length;
        const req = http.request(`${srv.url}/mcp`, { method: 'POST', headers, agent: false }, (res) => {
          res.resume();
          res.on('end', () => resolve({ status: res.statusCode ?? 0, sid: res.headers['mcp-session-id'] as string | undefined }));
        });
        req.on('error', reject);
        for (const c of sent.chunks) req.write(c);
        req.end();
      });
    for (const sent of [{ chunks: [init], length: init.length }, { chunks: [init.subarray(0, 7), init.subarray(7)] }]) {
      const r = await mcp(sent);
      expect(r.status).toBe(200);
      expect(r.sid).toBeTruthy();
    }
  });
});
