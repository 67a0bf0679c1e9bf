/**
 * The README's "Connect an agent" configs and mcp.json, run as an agent would run them: the
 * placeholder /abs/path/robot-parts-mcp replaced by this checkout, the command spawned over stdio
 * with the SDK client. And the Node version the package states agrees with what runs here (CI).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';

const root = path.resolve(import.meta.dirname, '../..');
const PLACEHOLDER = '/abs/path/robot-parts-mcp';
const readme = fs.readFileSync(path.join(root, 'README.md'), 'utf8');
const connect = readme.slice(readme.indexOf('## Connect an agent'), readme.indexOf('## Protocol revisions'));
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));

type Entry = { command: string; args: string[]; env?: Record<string, string> };
/** The stdio server entries of a config (mcpServers or VS Code's servers). */
function entries(config: { mcpServers?: Record<string, Entry>; servers?: Record<string, Entry & { type?: string }> }): Entry[] {
  return [...Object.values(config.mcpServers ?? {}), ...Object.values(config.servers ?? {})].filter((e) => typeof e.command === 'string');
}

async function listTools(e: Entry): Promise<string[]> {
  const home = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-connect-'));
  const env = { ...(Object.fromEntries(Object.entries(process.env).filter(([k, v]) => !k.startsWith('ROBOT_PARTS_') && v !== undefined)) as Record<string, string>), HOME: home, ...e.env };
  const command = e.command === 'node' ? process.execPath : e.command;
  const client = new Client({ name: 'connect-test', version: '1.0.0' });
  try {
    await client.connect(new StdioClientTransport({ command, args: e.args.map((a) => a.replace(PLACEHOLDER, root)), env, cwd: home, stderr: 'pipe' }));
    return (await client.listTools()).tools.map((t) => t.name);
  } finally {
    await client.close();
    fs.rmSync(home, { recursive: true, force: true });
  }
}

describe('connect configs', () => {
  it('mcp.json launches this checkout over stdio', async () => {
    const config = JSON.parse(fs.readFileSync(path.join(root, 'mcp.json'), 'utf8'));
    const [e] = entries(config);
    expect(e!.args).toEqual([`${PLACEHOLDER}/dist/cli.js`]);
    expect(await listTools(e!)).toContain('search_parts');
  });

  it("every stdio JSON config in the README's connect section parses, and the from-a-clone ones run", async () => {
    const blocks = [...connect.matchAll(/```json\n([\s\S]*?)```/g)].map((m) => JSON.parse(m[1]!));
    expect(blocks.length).toBeGreaterThanOrEqual(3);
    const stdio = blocks.flatMap(entries);
    expect(stdio.length).toBeGreaterThanOrEqual(2);
    for (const e of stdio) {
      expect(e.command).toBe('node');
      expect(e.args).toEqual([`${PLACEHOLDER}/dist/cli.js`]);
    }
    expect(await listTools(stdio[0]!)).toContain('search_parts');
  });

  it('the npx form is marked as working only once published; the tarball and Claude Code forms are given', () => {
    expect(connect).toMatch(/once published/);
    expect(connect).toContain(`npm install -g ./robot-parts-mcp-${pkg.version}.tgz`);
    expect(connect).toContain(`claude mcp add robot-parts -- node ${PLACEHOLDER}/dist/cli.js`);
    // the Inspector line connects to serve over HTTP (the Inspector's own Node 22 never loads our native module)
    expect(connect).toMatch(/@modelcontextprotocol\/inspector --cli http:\/\/127\.0\.0\.1:8787\/mcp --transport http/);
  });
});

describe('Node version', () => {
  it('engines is satisfied by the Node running the tests (what CI runs) and the README states it', () => {
    const [min] = /\d+\.\d+\.\d+/.exec(pkg.engines.node)!;
    expect(pkg.engines.node).toBe(`>=${min}`);
    const cmp = (a: string, b: string) => {
      const [x, y] = [a, b].map((v) => v.split('.').map(Number));
      for (let i = 0; i < 3; i++) if (x![i] !== y![i]) return x![i]! - y![i]!;
      return 0;
    };
    expect(cmp(process.versions.node, min!)).toBeGreaterThanOrEqual(0);
    const major = min!.split('.')[0];
    expect(readme).toContain(`Node.js ${min!.split('.').slice(0, 2).join('.')} or later. CI runs Node ${major}`);
    expect(readme).toContain(`\`engines\` in \`package.json\` says \`${pkg.engines.node}\``);
    // the @types/node major matches the Node the code is typed against
    expect(pkg.devDependencies['@types/node']).toMatch(new RegExp(`^\\^${major}\\.`));
  });
});
