/**
 * The sizing journey through the real binary over stdio (SDK stdio client), as an agent runs it:
 * size_actuators on SO-101 and on the Berkeley Humanoid Lite's left arm, the chosen parts passed
 * as they are to check_bom, then exported with export_bom as a named, costed CSV.
 *
 * Where the prices come from, honestly: the catalogue states price bands (price_range, unit not
 * stated), never unit prices, and no open-source BOM line states a price for the catalogue
 * actuators these robots are sized to (the first export checks that: reference_prices is empty and
 * nothing is charged). So the costed CSV is costed at USER-DECLARED unit prices: test inputs, not
 * data, sent as each item's `price` and marked price_source "item" on every CSV line (the export's
 * mark for a price the caller sent). Calls and characters of the SO-101 task are printed for the report.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { parse } from 'csv-parse/sync';

const root = path.resolve(import.meta.dirname, '../..');
const ROBOTS = path.resolve(root, '../shared/robots/urdf');
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-size-stdio-'));
let client: Client;
const traffic = { calls: 0, chars: 0 };

async function callJson(name: string, args: Record<string, unknown>): Promise<{ summary: string; json: Record<string, unknown> }> {
  const r = (await client.callTool({ name, arguments: args })) as CallToolResult;
  const text = (r.content[0] as { text: string }).text;
  traffic.calls += 1;
  traffic.chars += JSON.stringify(args).length + text.length;
  expect(r.isError, text.slice(0, 300)).toBeFalsy();
  return { summary: text.slice(0, text.indexOf('\n')), json: JSON.parse(text.slice(text.indexOf('\n') + 1)) as Record<string, unknown> };
}

type Sized = { joints: { joint_name: string; required_torque_nm: number; candidates: { id: string; torque_rated_nm: number }[]; target: number }[]; bom_items: { id: string; quantity: number }[]; unsized: string[] };

beforeAll(async () => {
  const env = { ...process.env } as Record<string, string>;
  delete env.ROBOT_PARTS_PUBLIC_URL;
  const transport = new StdioClientTransport({ command: process.execPath, args: [path.join(root, 'dist/cli.js'), '--db', path.join(tmp, 'x.db')], stderr: 'pipe', env });
  client = new Client({ name: 'size-stdio', version: '1.0.0' });
  await client.connect(transport);
});
afterAll(async () => {
  await client.close();
  fs.rmSync(tmp, { recursive: true, force: true });
});

async function journey(label: string, args: Record<string, unknown>, joints: number): Promise<void> {
  const size = await callJson('size_actuators', args);
  const o = size.json as unknown as Sized;
  expect(size.summary).toMatch(new RegExp(`^${joints} of ${joints} joint\\(s\\) sized`));
  expect(o.unsized).toEqual([]);
  for (const j of o.joints) expect(j.candidates[0]!.torque_rated_nm).toBeGreaterThanOrEqual(j.target);
  const check = await callJson('check_bom', { items: o.bom_items });
  expect((check.json.parts as { found: boolean }[]).every((p) => p.found)).toBe(true);
  const key = (await callJson('register_key', { email: `${label}@example.com` })).json.api_key as string;
  // As chosen, without prices: no open-source BOM prices these parts (no reference price), so nothing is costed or charged.
  const bare = await callJson('export_bom', { items: o.bom_items, format: 'json', include_suppliers: false, api_key: key });
  expect(bare.json.reference_prices).toEqual([]);
  expect((bare.json.metadata as { priced_lines: number }).priced_lines).toBe(0);
  expect(bare.summary).toMatch(/no line has a price/);
  // USER-DECLARED unit prices (test inputs, not catalogue or open-source data), marked as the caller's own.
  const items = o.bom_items.map((b, i) => ({ id: b.id, quantity: b.quantity, price: 20 + i }));
  const exp = await callJson('export_bom', { items, project_name: `${label} actuators`, currency: 'USD', api_key: key });
  const csv = exp.json.csv as string;
  expect(JSON.stringify(exp.json)).toContain(`${label} actuators`);
  const rows = parse(csv, { columns: true, bom: true }) as Record<string, string>[];
  for (const b of o.bom_items) {
    const row = rows.find((r) => r.id === b.id);
    expect(row, `${b.id} has a CSV line`).toBeDefined();
    expect(row!.price_source).toBe('item');
  }
  const total = items.reduce((s, it) => s + it.price * it.quantity, 0);
  expect(csv).toContain(String(total));
}

describe('sizing over stdio, then check_bom and export_bom', () => {
  it('SO-101: sized, checked, exported as a named CSV costed at user-declared prices (no open-source BOM prices its chosen parts)', async () => {
    const before = { ...traffic };
    await journey('so101', { content: fs.readFileSync(path.join(ROBOTS, 'so101_new_calib.urdf'), 'utf8') }, 6);
    console.log(`SO-101 sizing task over stdio: ${traffic.calls - before.calls} calls, ${traffic.chars - before.chars} characters (arguments + answers)`);
  });

  it('Berkeley Humanoid Lite, left arm: sized, checked, exported as a named CSV costed at user-declared prices (no open-source BOM prices its chosen parts)', async () => {
    const arm = ['arm_left_shoulder_pitch_joint', 'arm_left_shoulder_roll_joint', 'arm_left_shoulder_yaw_joint', 'arm_left_elbow_pitch_joint', 'arm_left_elbow_roll_joint'];
    await journey('humanoid-arm', { content: fs.readFileSync(path.join(ROBOTS, 'berkeley_humanoid_lite.urdf'), 'utf8'), joints: arm }, 5);
  });
});
