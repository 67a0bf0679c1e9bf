/**
 * Every tool's text block opens with one summary line that leads with the decisive fact (issue 40),
 * then the JSON: get_part, find_where_used, get_catalogue_stats and check_bom used to open with JSON;
 * check_compatibility now leads with the bridge it found, not "Overall: unknown".
 */
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Deps } from '../../src/deps.js';
import { TOOLS } from '../../src/tools/index.js';
import { makeEntity, sampleEntities } from '../support/factory.js';
import { testDeps } from '../support/deps.js';
import { memoryClient } from '../support/mcp.js';

describe('summary lines', () => {
  let deps: Deps;
  let mcp: Awaited<ReturnType<typeof memoryClient>>;
  beforeAll(async () => {
    deps = testDeps([
      ...sampleEntities(),
      makeEntity({ id: 'X-dxl', name: 'Dxl Servo', manufacturer: 'ROBOTIS', protocol: 'N/A', interface: 'TTL/RS485' }),
      makeEntity({ id: 'X-sbc', category: 'chips', name: 'Some SBC', type: 'SBC', interfaces: ['USB3', 'GbE'] }),
    ]);
    mcp = await memoryClient(deps);
  });
  afterAll(async () => {
    await mcp.close();
    deps.close();
  });

  const first = async (name: string, args: Record<string, unknown>) => {
    const r = await mcp.client.callTool({ name, arguments: args });
    expect(r.isError, name).not.toBe(true);
    const text = (r.content as { type: string; text: string }[])[0]!.text;
    const nl = text.indexOf('\n');
    expect(nl, `${name} has a summary line`).toBeGreaterThan(0);
    const line = text.slice(0, nl);
    expect(line.startsWith('{'), `${name}: ${line}`).toBe(false);
    expect(JSON.parse(text.slice(nl + 1))).toEqual(r.structuredContent);
    return line;
  };

  it('every tool of the registry has a summary line', () => {
    expect(TOOLS.filter((t) => !t.text).map((t) => t.name)).toEqual([]);
  });

  it('lint_urdf leads with "ok" for a real robot check_urdf builds', async () => {
    const content = readFileSync('../shared/robots/urdf/so101_new_calib.urdf', 'utf8');
    // Counted from the file, independently of the linter: its <link>s and its typed <joint>s (not a transmission's <joint> references).
    const links = content.match(/<link\s+name=/g)!.length;
    const joints = content.match(/<joint\s+name="[^"]*"\s+type=/g)!.length;
    expect(await first('lint_urdf', { content })).toBe(`ok: robot "so101_new_calib", ${links} link(s), ${joints} joint(s), 0 warning(s).`);
  });

  it('lint_urdf leads with the count of errors and the first one, with its line', async () => {
    const content = '<robot name="r">\n<link name="a"/>\n<joint name="j" type="fixed">\n<parent link="a"/><child link="nowhere"/>\n</joint>\n</robot>';
    const line = await first('lint_urdf', { content });
    expect(line).toMatch(/^1 error\(s\): first \w+ at line \d+: .*nowhere.* \(fix: .+\)$/);
  });

  it('get_payment_status leads with the order and its status', async () => {
    const { api_key } = await deps.accounts.register('summary@example.com');
    const order = (await mcp.client.callTool({ name: 'create_payment', arguments: { plan: 'pro', api_key } })).structuredContent as { order_id: string };
    expect(await first('get_payment_status', { order_id: order.order_id })).toMatch(new RegExp(`^Order ${order.order_id}: pending \\(pro, \\d+\\.\\d\\d [A-Z]{3}, \\d+ credits\\)\\.$`));
  });

  it('get_part leads with the id and name', async () => {
    expect(await first('get_part', { id: 'ACT-001' })).toMatch(/^ACT-001: Alpha Servo XM1 by Acme Robotics \(actuators\)/);
  });

  it('find_where_used leads with the count of robots', async () => {
    expect(await first('find_where_used', { q: 'zz-no-such-part' })).toMatch(/^No open-source robot uses "zz-no-such-part"\.$/);
  });

  it('get_catalogue_stats leads with the total', async () => {
    const n = sampleEntities().length + 2;
    expect(await first('get_catalogue_stats', {})).toMatch(new RegExp(`^${n} entities \\(1 quarantined\\)`));
  });

  it('check_bom leads with the verdict and the counts', async () => {
    const line = await first('check_bom', { items: [{ id: 'ACT-001' }, { id: 'ACT-010' }] });
    expect(line).toMatch(/^No errors, \d+ warning\(s\), \d+ info\(s\) over 2 line\(s\)/);
    expect(line).toMatch(/quarantined data_quality ×1/);
  });

  it('check_compatibility leads with the bridge it found', async () => {
    const line = await first('check_compatibility', { a: 'X-sbc', b: 'X-dxl' });
    expect(line).toMatch(/^Needs ROBOTIS U2D2/);
    expect(line).toContain('(X-sbc + X-dxl)');
  });
});
