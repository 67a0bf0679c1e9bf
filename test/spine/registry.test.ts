/** Registry-wide rules for every tool, and a snapshot of tools/list so schema changes are deliberate. */
import { describe, expect, it } from 'vitest';
import { toolListEntry } from '../../src/server.js';
import { TOOLS } from '../../src/tools/index.js';
import { testDeps } from '../support/deps.js';
import { memoryClient } from '../support/mcp.js';

const VERBS = ['search', 'get', 'list', 'check', 'rule', 'convert', 'screen', 'export', 'register', 'create', 'extract', 'compare', 'find', 'lint', 'design', 'size'];

describe('tool registry', () => {
  it('names are unique, snake_case and verb-first', () => {
    const names = TOOLS.map((t) => t.name);
    expect(new Set(names).size).toBe(names.length);
    for (const n of names) {
      expect(n).toMatch(/^[a-z]+(_[a-z0-9]+)+$/);
      expect(VERBS, n).toContain(n.split('_')[0]);
    }
  });

  it.each(TOOLS.map((t) => [t.name, t] as const))('%s has title, description, all four annotations, described inputs and an output schema', (_n, t) => {
    expect(t.title.length).toBeGreaterThan(3);
    expect(t.description.length).toBeGreaterThan(40);
    for (const k of ['readOnlyHint', 'destructiveHint', 'idempotentHint', 'openWorldHint'] as const) expect(typeof t.annotations[k]).toBe('boolean');
    const entry = toolListEntry(t);
    expect(entry.outputSchema?.type).toBe('object');
    for (const [field, schema] of Object.entries((entry.inputSchema.properties ?? {}) as Record<string, { description?: string }>)) {
      expect(schema.description, `${t.name}.${field} needs .describe()`).toBeTruthy();
    }
  });

  it('REST paths are unique across tools', () => {
    const routes = TOOLS.flatMap((t) => t.rest.map((r) => `${r.method} ${r.path}`));
    expect(new Set(routes).size).toBe(routes.length);
  });

  it('tools/list matches the committed snapshot (update with `npx vitest run -u` when a change is deliberate)', async () => {
    const deps = testDeps();
    const { client, close } = await memoryClient(deps);
    const { tools } = await client.listTools();
    await close();
    deps.close();
    await expect(JSON.stringify(tools, null, 2) + '\n').toMatchFileSnapshot('../__snapshots__/tools-list.json');
  });
});
