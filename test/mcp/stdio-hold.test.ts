/**
 * stdio before the stores are open: the line transport holds messages (in order) while what they
 * wait for settles; the binary answers the handshake, then opens its deps for the first message
 * that needs them (even with no notifications/initialized), and a database it cannot open ends
 * the process with the error on stderr.
 */
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { PassThrough } from 'node:stream';
import { describe, expect, it } from 'vitest';
import type { JSONRPCMessage } from '@modelcontextprotocol/server';
import { LineStdioTransport } from '../../src/mcp/stdio-transport.js';
import { prebuiltToolList, registryStamp } from '../../src/mcp/tools-list-cache.js';

const root = path.resolve(import.meta.dirname, '../..');
const bin = path.join(root, 'dist/cli.js');

describe('LineStdioTransport hold', () => {
  it('a held message waits, later ones queue behind it in order, and a failed wait still passes it on', async () => {
    const stdin = new PassThrough();
    const stdout = new PassThrough();
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    const failing = Promise.reject(new Error('no'));
    failing.catch(() => {});
    const t = new LineStdioTransport(stdin, stdout, {
      hold: (m) => ('method' in m && m.method === 'slow' ? gate : 'method' in m && m.method === 'broken' ? failing : undefined),
    });
    const seen: string[] = [];
    t.onmessage = (m: JSONRPCMessage) => seen.push('method' in m ? m.method : 'response');
    await t.start();
    const line = (method: string, id: number) => stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method })}\n`);
    line('first', 1);
    line('slow', 2);
    line('after', 3);
    line('broken', 4);
    line('last', 5);
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual(['first']);
    release();
    await new Promise((r) => setTimeout(r, 20));
    expect(seen).toEqual(['first', 'slow', 'after', 'broken', 'last']);
    line('free', 6); // the queue has drained: passed on at once
    await new Promise((r) => setImmediate(r));
    expect(seen.at(-1)).toBe('free');
    await t.close();
  });
});

describe('prebuilt tools/list without the registry', () => {
  it('trusted while the stamped modules keep their content: a new file time alone keeps it, other bytes drop it', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-tl-'));
    try {
      const module = path.join(dir, 'index.js');
      const dep = path.join(dir, 'defs.js');
      const file = path.join(dir, 'tools-list.json');
      fs.writeFileSync(dep, "export const A = 'a';\n");
      fs.writeFileSync(module, "import { A } from './defs.js';\nexport const TOOLS = [A];\n");
      const stamp = registryStamp(module);
      expect(stamp?.files).toEqual(['defs.js', 'index.js']); // the registry and what it imports
      const tools = [{ name: 'a', inputSchema: { type: 'object' } }];
      fs.writeFileSync(file, JSON.stringify({ registry: stamp, tools }));
      expect(await prebuiltToolList(file, module)).toEqual(tools);
      // An install (or a copy, a checkout) gives the files new times: the list is still the one.
      const later = new Date(Date.now() + 86_400_000);
      fs.utimesSync(module, later, later);
      fs.utimesSync(dep, later, later);
      expect(await prebuiltToolList(file, module)).toEqual(tools);
      // The same bytes written again (a compile that changed nothing) keep it too.
      fs.writeFileSync(module, fs.readFileSync(module));
      expect(await prebuiltToolList(file, module)).toEqual(tools);
      // A module it imports compiled with other content: dropped.
      fs.writeFileSync(dep, "export const A = 'b';\n");
      expect(await prebuiltToolList(file, module)).toBeNull();
      fs.writeFileSync(dep, "export const A = 'a';\n");
      expect(await prebuiltToolList(file, module)).toEqual(tools);
      // The registry module itself with other content, same size: dropped.
      fs.writeFileSync(module, "import { A } from './defs.js';\nexport const TOOLS = [B];\n");
      expect(await prebuiltToolList(file, module)).toBeNull();
      fs.rmSync(dep);
      expect(await prebuiltToolList(file, module)).toBeNull(); // a stamped module gone
      fs.writeFileSync(file, JSON.stringify({ registry: { size: 1, mtime_ms: 1 }, tools })); // an older stamp (file times)
      expect(await prebuiltToolList(file, module)).toBeNull();
      fs.writeFileSync(file, JSON.stringify({ tools })); // no stamp
      expect(await prebuiltToolList(file, module)).toBeNull();
      expect(await prebuiltToolList(path.join(dir, 'absent.json'), module)).toBeNull();
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

/** Spawns the binary, writes `lines`, collects stdout messages until `done` says so or the process exits. */
function run(args: string[], lines: object[], done: (msgs: { id?: unknown; result?: unknown; error?: unknown }[]) => boolean) {
  return new Promise<{ msgs: { id?: unknown; result?: { tools?: unknown[]; structuredContent?: unknown } ; error?: unknown }[]; code: number | null; stderr: string }>((resolve, reject) => {
    const child = spawn(process.execPath, [bin, ...args], { env: { ...process.env, ROBOT_PARTS_LOG_LEVEL: 'error' }, stdio: ['pipe', 'pipe', 'pipe'] });
    const msgs: { id?: unknown; result?: { tools?: unknown[] }; error?: unknown }[] = [];
    let out = '';
    let stderr = '';
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`timed out; stderr: ${stderr}`));
    }, 20_000);
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      let nl;
      while ((nl = out.indexOf('\n')) >= 0) {
        msgs.push(JSON.parse(out.slice(0, nl)) as (typeof msgs)[number]);
        out = out.slice(nl + 1);
      }
      if (done(msgs)) child.stdin.end();
    });
    child.on('exit', (code) => {
      clearTimeout(timer);
      resolve({ msgs, code, stderr });
    });
    for (const l of lines) child.stdin.write(`${JSON.stringify(l)}\n`);
  });
}

const init = { jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 't', version: '0' } } };

describe.skipIf(!fs.existsSync(bin))('stdio binary before its stores are open', () => {
  it('a tool call right after initialize (no initialized notification) waits for the deps and is answered', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-hold-'));
    try {
      const call = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_catalogue_stats', arguments: {} } };
      const list = { jsonrpc: '2.0', id: 3, method: 'tools/list' };
      const r = await run(['--db', path.join(dir, 'x.db')], [init, call, list], (m) => m.some((x) => x.id === 2) && m.some((x) => x.id === 3));
      const ids = r.msgs.map((m) => m.id);
      expect(ids[0]).toBe(1);
      expect([...ids].sort()).toEqual([1, 2, 3]); // every request answered (responses may come in any order)
      const stats = r.msgs.find((m) => m.id === 2)!.result as { structuredContent?: { license?: string } };
      expect(stats.structuredContent?.license).toBe('CC BY 4.0');
      expect((r.msgs.find((m) => m.id === 3)!.result as { tools: unknown[] }).tools.length).toBeGreaterThan(10);
      expect(r.code).toBe(0);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('a database that cannot be opened: the handshake is answered, then the process ends with the error', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-hold-'));
    try {
      const blocker = path.join(dir, 'file');
      fs.writeFileSync(blocker, 'not a directory');
      const r = await run(['--db', path.join(blocker, 'x.db')], [init, { jsonrpc: '2.0', method: 'notifications/initialized' }, { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'get_catalogue_stats', arguments: {} } }], () => false);
      expect(r.msgs.map((m) => m.id)).toEqual([1]);
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/robot-parts-mcp: .*(ENOTDIR|not a directory|unable to open|directory)/i);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
