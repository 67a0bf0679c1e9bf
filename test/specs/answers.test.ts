/**
 * Registry-wide: for every tool and a realistic call on the shipped catalogue, the text block
 * carries the compact JSON of structuredContent (after an optional one-line summary) and the
 * default answer stays under 80,000 characters. A new tool without a call here fails the test.
 * The per-tool figures are printed (README "Answer sizes" lists them).
 */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { TOOLS } from '../../src/tools/index.js';
import { realDeps } from '../support/deps.js';
import { call, memoryClient } from '../support/mcp.js';
import type { Deps } from '../../src/deps.js';

const LIMIT = 80_000;
const urdf = fs.readFileSync(path.resolve(import.meta.dirname, '../../../shared/robots/urdf/so101_new_calib.urdf'), 'utf8');

let deps: Deps;
let client: Client;
let close: () => Promise<void>;
let key = '';
let order = '';

/** A realistic default call per tool (arguments an agent would send, no paging or size options). */
const CALLS: Record<string, () => Record<string, unknown>> = {
  search_parts: () => ({ q: 'actuator' }),
  get_part: () => ({ id: 'ACT-016' }),
  list_parts: () => ({}),
  get_catalogue_stats: () => ({}),
  list_spec_fields: () => ({}),
  compare_parts: () => ({ ids: ['REDUCER-HD-25', 'REDUCER-HD-32', 'REDUCER-GH-25'] }),
  find_alternatives: () => ({ id: 'ACT-016' }),
  check_compatibility: () => ({ a: 'ACT-016', b: 'ACT-017' }),
  rule_flange: () => ({ a: 'ISO9409-1-A50-4-M6', b: 'ISO9409-1-A50-4-M6' }),
  // The largest plate answer: 6 + 6 holes, two features each (nut pockets).
  design_adapter_plate: () => ({ a: 'ISO9409-1-A63-6-M6', b: 'ISO9409-1-A80-6-M8', b_holes: 'nut' }),
  convert_parameter: () => ({ value: '15 kgf·cm', to: 'Nm' }),
  screen_part: () => ({ id: 'ACT-017' }),
  check_bom: () => ({ items: ['ACT-016', 'ACT-017', 'REDUCER-HD-25', 'SENS-047'].map((id) => ({ id, quantity: 2 })) }),
  export_bom: () => ({ items: ['ACT-016', 'ACT-017'].map((id) => ({ id, quantity: 2, price: 100 })), api_key: key, format: 'json' }),
  extract_robot_parts: () => ({ content: urdf, kind: 'urdf' }),
  get_analytics: () => ({}),
  find_where_used: () => ({ q: 'STS3215' }),
  lint_urdf: () => ({ content: urdf }),
  size_actuators: () => ({ content: urdf }),
  register_key: () => ({ email: 'answers-size@example.com' }),
  get_balance: () => ({ api_key: key }),
  create_payment: () => ({ plan: 'starter', api_key: key }),
  get_payment_status: () => ({ order_id: order }),
};

const sizes: Record<string, number> = {};

beforeAll(async () => {
  deps = realDeps();
  ({ client, close } = await memoryClient(deps));
  const reg = await call(client, 'register_key', { email: 'answers@example.com' });
  key = (reg.structuredContent as { api_key: string }).api_key;
  const pay = await call(client, 'create_payment', { plan: 'starter', api_key: key });
  order = (pay.structuredContent as { order_id: string }).order_id;
});
afterAll(async () => {
  await close();
  deps.close();
  process.stdout.write(`default answer sizes (characters of the text block): ${JSON.stringify(sizes)}\n`);
});

describe('every tool answers in text an agent can read whole', () => {
  it('every registered tool has a realistic call here', () => {
    expect(TOOLS.map((t) => t.name).filter((n) => !CALLS[n])).toEqual([]);
  });

  it.each(TOOLS.map((t) => [t.name] as const))('%s: text = one-line summary + compact JSON equal to structuredContent, under 80,000 characters', async (name) => {
    const r = await call(client, name, CALLS[name]());
    expect(r.isError, JSON.stringify(r.content).slice(0, 400)).toBeFalsy();
    // One text block; files the answer links (design_adapter_plate) follow as resource_link blocks.
    expect(r.content.filter((c) => c.type !== 'resource_link')).toHaveLength(1);
    const text = (r.content[0] as { type: string; text: string }).text;
    const nl = text.indexOf('\n');
    // At most one summary line before the JSON, and the JSON is compact (no pretty-printing).
    const json = text.startsWith('{') ? text : text.slice(nl + 1);
    if (!text.startsWith('{')) expect(text.slice(0, nl)).not.toContain('\n');
    expect(JSON.parse(json)).toEqual(r.structuredContent);
    expect(json).toBe(JSON.stringify(r.structuredContent));
    sizes[name] = text.length;
    expect(text.length).toBeLessThan(LIMIT);
  });

  it('unknown arguments are rejected naming the argument and the nearest valid one', async () => {
    const r = await call(client, 'search_parts', { q: 'servo', limt: 5 });
    expect(r.isError).toBe(true);
    const body = r._meta?.['robot-parts/error'] as { code: string; field: string; nearest: string; valid_arguments: string[] };
    expect(body).toMatchObject({ code: 'invalid_input', field: 'limt', nearest: 'limit' });
    expect(body.valid_arguments).toContain('where');
    const r2 = await call(client, 'get_catalogue_stats', { verbose: true });
    expect(r2._meta?.['robot-parts/error']).toMatchObject({ code: 'invalid_input', field: 'verbose' });
  });

  it('did_you_mean on a lookup miss matches names and model numbers ("ak80-9" finds the AK80-9 records)', async () => {
    const r = await call(client, 'get_part', { id: 'ak80-9' });
    const body = r._meta?.['robot-parts/error'] as { code: string; did_you_mean: string[] };
    expect(body.code).toBe('not_found');
    const catalogue = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../data/catalogue/entities.json'), 'utf8')) as { entities: { id: string; name: string; name_en: string }[] };
    const expected = catalogue.entities.filter((e) => /(^|[^a-z0-9])ak80[^a-z0-9]+9($|[^a-z0-9])/i.test(`${e.name} ${e.name_en}`)).map((e) => e.id);
    expect(expected.length).toBe(3);
    expect([...body.did_you_mean].sort()).toEqual([...expected].sort());
  });
});
