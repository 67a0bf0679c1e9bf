/**
 * The package as the MCP registry sees it: server.json against the rules of the registry's
 * server.json schema (2025-12-11, the current release; written out below in our own words and
 * checked with ajv, since the schema itself is not vendored), one version for package.json and
 * server.json, the registry name equal to package.json's mcpName, and environment variables whose
 * stated defaults are what the binary really does on each transport.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { Ajv } from 'ajv';
import addFormatsModule from 'ajv-formats';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { loadConfig } from '../../src/config.js';

const root = path.resolve(import.meta.dirname, '../..');
const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'));
const server = JSON.parse(fs.readFileSync(path.join(root, 'server.json'), 'utf8'));
const SCHEMA_URL = 'https://static.modelcontextprotocol.io/schemas/2025-12-11/server.schema.json';

/** The registry schema's constraints (2025-12-11), as we read them; stricter where noted. */
const input = {
  type: 'object',
  properties: {
    description: { type: 'string' },
    isRequired: { type: 'boolean' },
    isSecret: { type: 'boolean' },
    format: { enum: ['string', 'number', 'boolean', 'filepath'] },
    value: { type: 'string' },
    default: { type: 'string' },
    placeholder: { type: 'string' },
    choices: { type: 'array', items: { type: 'string' } },
  },
};
const keyValue = { allOf: [input, { type: 'object', required: ['name'], properties: { name: { type: 'string', minLength: 1 } } }] };
const url = { type: 'string', pattern: '^(https?://[^\\s]+|\\{[a-zA-Z_][a-zA-Z0-9_]*\\}[^\\s]*)$' };
const transport = {
  anyOf: [
    { type: 'object', required: ['type'], properties: { type: { const: 'stdio' } } },
    { type: 'object', required: ['type', 'url'], properties: { type: { const: 'streamable-http' }, url, headers: { type: 'array', items: keyValue } } },
    { type: 'object', required: ['type', 'url'], properties: { type: { const: 'sse' }, url, headers: { type: 'array', items: keyValue } } },
  ],
};
const argument = {
  anyOf: [
    { allOf: [input, { type: 'object', required: ['type'], properties: { type: { const: 'positional' }, valueHint: { type: 'string' } }, anyOf: [{ required: ['valueHint'] }, { required: ['value'] }] }] },
    { allOf: [input, { type: 'object', required: ['type', 'name'], properties: { type: { const: 'named' }, name: { type: 'string' } } }] },
  ],
};
const RULES = {
  type: 'object',
  required: ['name', 'description', 'version'],
  properties: {
    $schema: { type: 'string', format: 'uri' },
    name: { type: 'string', pattern: '^[a-zA-Z0-9.-]+/[a-zA-Z0-9._-]+$', minLength: 3, maxLength: 200 },
    title: { type: 'string', minLength: 1, maxLength: 100 },
    description: { type: 'string', minLength: 1, maxLength: 100 },
    // not a range (^1.2.3, ~1.2.3, >=1.2.3, 1.x, 1.*)
    version: { type: 'string', maxLength: 255, not: { pattern: '^[\\^~<>=]|(^|\\.)(x|\\*)(\\.|$)' } },
    websiteUrl: { type: 'string', format: 'uri' },
    repository: { type: 'object', required: ['url', 'source'], properties: { url: { type: 'string', format: 'uri' }, source: { type: 'string' }, id: { type: 'string' }, subfolder: { type: 'string' } } },
    packages: {
      type: 'array',
      items: {
        type: 'object',
        required: ['registryType', 'identifier', 'transport'],
        additionalProperties: false, // stricter: no field the schema does not know
        properties: {
          registryType: { type: 'string' },
          registryBaseUrl: { type: 'string', format: 'uri' },
          identifier: { type: 'string' },
          version: { type: 'string', minLength: 1, maxLength: 255, not: { const: 'latest' } },
          fileSha256: { type: 'string', pattern: '^[a-f0-9]{64}$' },
          runtimeHint: { type: 'string' },
          transport,
          runtimeArguments: { type: 'array', items: argument },
          packageArguments: { type: 'array', items: argument },
          environmentVariables: { type: 'array', items: keyValue },
        },
      },
    },
    remotes: { type: 'array' },
  },
};

function validator() {
  const ajv = new Ajv({ allErrors: true, strict: false });
  (addFormatsModule as unknown as (a: Ajv) => void)(ajv);
  return ajv.compile(RULES);
}

describe('server.json', () => {
  it('is valid against the registry rules (2025-12-11) and names that schema', () => {
    const validate = validator();
    const ok = validate(server);
    // printed for the release notes: the validation output
    console.log(`server.json against the registry rules of ${SCHEMA_URL}: ${ok ? 'valid' : JSON.stringify(validate.errors, null, 2)}`);
    expect(validate.errors ?? []).toEqual([]);
    expect(server.$schema).toBe(SCHEMA_URL);
    expect(server.description.length).toBeLessThanOrEqual(100);
  });

  it('the rules can fail: the old description (139 characters), a version range and an unknown package field are refused', () => {
    const validate = validator();
    expect(validate({ ...server, description: 'x'.repeat(139) })).toBe(false);
    expect(validate.errors!.map((e) => e.instancePath)).toContain('/description');
    expect(validate({ ...server, version: '^0.1.0' })).toBe(false);
    expect(validate({ ...server, name: 'robot-parts-mcp' })).toBe(false);
    expect(validate({ ...server, packages: [{ ...server.packages[0], environment_variables: [] }] })).toBe(false);
    expect(validate({ ...server, packages: [{ ...server.packages[0], version: 'latest' }] })).toBe(false);
  });

  it('one version and one name: package.json is the source, server.json and its packages follow', () => {
    expect(server.version).toBe(pkg.version);
    for (const p of server.packages) {
      expect(p.version).toBe(pkg.version);
      expect(p.identifier).toBe(pkg.name);
      expect(p.registryType).toBe('npm');
    }
    expect(pkg.mcpName).toBe(server.name);
    expect(server.name).toMatch(/^io\.github\.[a-zA-Z0-9-]+\//);
    // the registry checks GitHub namespaces against the repository owner
    const owner = server.name.slice('io.github.'.length, server.name.indexOf('/'));
    expect(server.repository.url).toBe(`https://github.com/${owner}/robot-parts-mcp`);
    expect(pkg.repository.url).toBe(`git+${server.repository.url}.git`);
    expect(pkg.bugs.url).toBe(`${server.repository.url}/issues`);
    expect(pkg.homepage.startsWith(server.repository.url)).toBe(true);
    expect(pkg.files).toContain('server.json');
  });

  it('every environment variable it names is read by the server', () => {
    const sources = ['src/config.ts', 'src/cli.ts'].map((f) => fs.readFileSync(path.join(root, f), 'utf8')).join('\n');
    for (const p of server.packages) for (const v of p.environmentVariables ?? []) expect(sources.includes(`env.${v.name}`) || sources.includes(`'${v.name}'`), v.name).toBe(true);
  });

  it('the HTTP package: its defaults are what serve uses (port 8787, ./robot-parts.db, no loopback limit)', () => {
    const http = server.packages.find((p: { transport: { type: string } }) => p.transport.type === 'streamable-http');
    expect(http.packageArguments).toEqual([{ type: 'positional', value: 'serve' }]);
    const def = (n: string) => http.environmentVariables.find((v: { name: string }) => v.name === n)?.default;
    const config = loadConfig({});
    expect(def('ROBOT_PARTS_PORT')).toBe(String(config.port));
    expect(http.transport.url).toBe(`http://${config.host}:{ROBOT_PARTS_PORT}/mcp`);
    expect(path.resolve(def('ROBOT_PARTS_DB'))).toBe(config.dbPath);
    expect(def('ROBOT_PARTS_RATE_LIMIT')).toBe(String(config.rateLimit));
    expect(config.rateLimitFree).toBe(0);
    expect(loadConfig({ ROBOT_PARTS_RATE_LIMIT: def('ROBOT_PARTS_RATE_LIMIT') }).rateLimitFree).toBe(0);
    expect(loadConfig({ ROBOT_PARTS_RATE_LIMIT: 'true' }).rateLimitFree).toBe(30);
  });

  it('the stdio package: without ROBOT_PARTS_DB the binary creates the stated default file under the home folder', async () => {
    const stdio = server.packages.find((p: { transport: { type: string } }) => p.transport.type === 'stdio');
    const stated: string = stdio.environmentVariables.find((v: { name: string }) => v.name === 'ROBOT_PARTS_DB').default;
    expect(stated.startsWith('~/')).toBe(true);
    const home = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-home-'));
    const cwd = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-cwd-'));
    const env = Object.fromEntries(Object.entries(process.env).filter(([k, v]) => !k.startsWith('ROBOT_PARTS_') && v !== undefined)) as Record<string, string>;
    const client = new Client({ name: 'server-json-defaults', version: '1.0.0' });
    try {
      await client.connect(new StdioClientTransport({ command: process.execPath, args: [path.join(root, 'dist', 'cli.js')], cwd, env: { ...env, HOME: home }, stderr: 'pipe' }));
      const r = await client.callTool({ name: 'search_parts', arguments: { q: 'motor', limit: 1 } });
      expect(r.isError, JSON.stringify(r.content)).toBeFalsy();
      expect(fs.existsSync(path.join(home, stated.slice(2)))).toBe(true);
      expect(fs.readdirSync(cwd)).toEqual([]); // nothing in the (often read-only) working folder
    } finally {
      await client.close();
      fs.rmSync(home, { recursive: true, force: true });
      fs.rmSync(cwd, { recursive: true, force: true });
    }
  });
});
