/** convert_parameter, screen_part and the parameter semantics dataset through MCP and REST. */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import type { CallToolResult } from '@modelcontextprotocol/client';
import { buildDeps, type Deps } from '../../src/deps.js';
import type { StoredEntity } from '../../src/domain/catalogue/entity.js';
import { startHttpServer } from '../../src/http/app.js';
import { silentLogger } from '../../src/log.js';
import { convertParameterTool } from '../../src/tools/convert-parameter.js';
import { screenPartTool } from '../../src/tools/screen-part.js';
import { realDeps, testConfig } from '../support/deps.js';
import { catalogueData, makeEntity } from '../support/factory.js';
import { call, errorBody, memoryClient, openSurfaces } from '../support/mcp.js';

const ATTRIBUTION = 'Data: RoboParts (https://roboparts.cc), CC BY 4.0';
const SPEC_KEYS = ['meta', 'scope', 'comparability_levels', 'unit_conversions', 'red_lines', 'industry_evidence', 'known_defects', 'buyer_checklist', 'citation'];

let deps: Deps;
let client: Client;
let close: () => Promise<void>;
const srv = { url: '' };
beforeAll(async () => {
  deps = realDeps();
  ({ client, url: srv.url, close } = await openSurfaces(deps));
  // listTools caches the output schemas: from then on the SDK client validates every structuredContent.
  const { tools } = await client.listTools();
  for (const n of ['convert_parameter', 'screen_part']) expect(tools.find((t) => t.name === n)?.outputSchema?.type).toBe('object');
});
afterAll(async () => {
  await close();
});

/** Structured content of a successful call, also checked against the zod output schema (no key dropped or added). */
function output(r: CallToolResult, schema: { parse: (v: unknown) => unknown }): any {
  expect(r.isError, JSON.stringify(r.structuredContent)).toBeFalsy();
  expect(schema.parse(r.structuredContent)).toEqual(r.structuredContent);
  return r.structuredContent;
}
const convertOut = async (args: Record<string, unknown>) => output(await call(client, 'convert_parameter', args), convertParameterTool.outputSchema);

describe('convert_parameter', () => {
  it('"0.11 sec/60°" -> rad/s by (pi/3)/0.11, flagged as an inverse quantity', async () => {
    const o = await convertOut({ value: '0.11 sec/60°', to: 'rad/s' });
    expect(o.parsed).toMatchObject({
      recognized: true,
      quantity: 'angular_speed',
      dialect: 'speed.servo.sec_deg',
      notation: '<n> sec/60°',
      declared: { value: '0.11', min: null, max: null, unit: 'sec/60deg' },
      conversion: { from: 'sec/60deg', to: 'rad/s', formula: 'rad_s = (pi/3) / t_sec', inverse: true, exact: true, spec_conversion: true },
      comparability: { level: 'C', missing_conditions: ['voltage_v', 'load'] },
    });
    expect(o.parsed.si.unit).toBe('rad/s');
    expect(o.parsed.si.value).toBeCloseTo(Math.PI / 3 / 0.11, 12);
    expect(o.conversion).toMatchObject({ ok: true, to: 'rad/s', exact: null, fraction: null, range: null, formulas: ['rad_s = (pi/3) / t_sec'], text: '9.51997773815 rad/s' });
    expect(o.conversion.value).toBeCloseTo(9.519977738150889, 12);
    expect(o.conversion).not.toHaveProperty('parsed');
    expect(o.comparison).toBeNull();
  });

  it('"15 kgf·cm" -> 1.4709975 Nm exactly', async () => {
    const o = await convertOut({ value: '15 kgf·cm', to: 'Nm' });
    expect(o.parsed).toMatchObject({ quantity: 'torque', dialect: 'torque.kgf_cm', si: { unit: 'Nm', value: 1.4709975, exact: '1.4709975', range: null } });
    expect(o.parsed.conversion.computation).toBe('15 * 0.0980665 = 1.4709975');
    expect(o.conversion).toMatchObject({ ok: true, value: 1.4709975, exact: '1.4709975', text: '1.4709975 Nm', formulas: ['Nm = kgf_cm * 0.0980665'] });
  });

  it('without `to`, reads conditions and dialect only', async () => {
    const o = await convertOut({ value: '4.1 Nm @ 12V' });
    expect(o.parsed).toMatchObject({ dialect: 'torque.nm.at_voltage', notation: '<n> Nm @ <n>V', si: { value: 4.1, exact: '4.1' } });
    expect(o.parsed.condition.voltage_v).toBe(12);
    expect(o.conversion).toBeNull();
  });

  it('"1 Mbps" is a data rate: converting it to rad/s is refused with the reason, not thrown', async () => {
    const o = await convertOut({ value: '1 Mbps', to: 'rad/s' });
    expect(o.parsed).toMatchObject({ quantity: 'data_rate', dialect: 'speed.comm.bps', si: { unit: 'bit/s', value: 1000000, exact: '1000000' } });
    expect(o.conversion).toEqual({
      ok: false,
      to: 'rad/s',
      reason: 'different_quantity',
      message: '"1 Mbps" is data rate (bit/s); rad/s measures angular speed: not convertible',
      notes: [],
    });
  });

  it('an unreadable value is recognized=false, and converting it is ok=false "unrecognized"', async () => {
    const o = await convertOut({ value: 'very strong', to: 'Nm' });
    expect(o.parsed).toMatchObject({ recognized: false, quantity: null, si: null, comparability: { level: 'D' } });
    expect(o.conversion).toMatchObject({ ok: false, reason: 'unrecognized' });
  });

  it('compare "0.11 sec/60°" with "6.28 rad/s": level C, a is faster, with the inverse-ordering note', async () => {
    const o = await convertOut({ value: '0.11 sec/60°', compare_with: '6.28 rad/s' });
    expect(o.comparison).toMatchObject({
      level: 'C',
      unit_axis: { level: 'B' },
      condition_axis: { level: 'C', missing_a: ['voltage_v', 'load'], missing_b: ['voltage_v', 'load'], differing: [] },
      si_relation: 'a_greater',
      ordering_note:
        'sec/60deg is time per 60 degrees: a smaller number is faster. After conversion to rad/s a larger number is faster, so ordering by the raw numbers gives the opposite order.',
    });
    expect(o.comparison.reason).toMatch(/^comparable within one vendor only/);
    expect(o.comparison.b).toMatchObject({ input: '6.28 rad/s', dialect: 'speed.ang.rad_s' });
    expect(o.comparison).not.toHaveProperty('a');
  });

  it('compare a data rate with an angular speed: level D naming KD-01', async () => {
    const o = await convertOut({ value: '1 Mbps', compare_with: '60 rpm' });
    expect(o.comparison.level).toBe('D');
    expect(o.comparison.reason).toBe('not comparable: different physical quantities (data rate vs angular speed); a communication data rate is not a mechanical speed (KD-01)');
  });

  it.each([
    [{ value: '' }, 'value'],
    [{ value: '   ' }, 'value'],
    [{}, 'value'],
    [{ value: '1 Nm', to: 'furlongs' }, 'to'],
    [{ value: '1 Nm', to: '' }, 'to'],
    [{ value: '1 Nm', compare_with: '' }, 'compare_with'],
    [{ value: 'x'.repeat(201) }, 'value'],
  ])('bad input %j -> invalid_input naming %s', async (args, field) => {
    const body = errorBody(await call(client, 'convert_parameter', args));
    expect(body).toMatchObject({ code: 'invalid_input', field });
    expect(String(body.error)).toMatch(new RegExp(`^${field}: `));
  });

  it('REST GET /api/parameters/convert mirrors the tool', async () => {
    const q = new URLSearchParams({ value: '0.11 sec/60°', to: 'rad/s', compare_with: '6.28 rad/s' });
    const r = await fetch(`${srv.url}/api/parameters/convert?${q}`);
    expect(r.status).toBe(200);
    const o = (await r.json()) as any;
    expect(o.conversion.formulas).toEqual(['rad_s = (pi/3) / t_sec']);
    expect(o.comparison.si_relation).toBe('a_greater');
    expect(o).toEqual(await convertOut({ value: '0.11 sec/60°', to: 'rad/s', compare_with: '6.28 rad/s' }));

    const bad = await fetch(`${srv.url}/api/parameters/convert?value=${encodeURIComponent('1 Nm')}&to=furlongs`);
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ code: 'invalid_input', field: 'to' });
    const missing = await fetch(`${srv.url}/api/parameters/convert`);
    expect(missing.status).toBe(400);
    expect(((await missing.json()) as { field: string }).field).toBe('value');
  });
});

describe('screen_part', () => {
  it('ACT-001: the six red lines on its declared values, as screening marks', async () => {
    const o = output(await call(client, 'screen_part', { id: 'act-001' }), screenPartTool.outputSchema);
    expect(o.id).toBe('ACT-001');
    expect(o.red_lines.map((r: { id: string }) => r.id)).toEqual(['RL-01', 'RL-02', 'RL-03', 'RL-04', 'RL-05', 'RL-06']);
    expect(o.summary).toEqual({ fires: 0, does_not_fire: 2, cannot_evaluate: 4 });
    // 9.2 Nm / 0.082 kg = 112.2 Nm/kg: below the 120 Nm/kg review line.
    expect(o.red_lines[0]).toMatchObject({
      status: 'does_not_fire',
      numbers: { rated_torque_nm: 9.2, mass_kg: 0.082, ratio_nm_per_kg: 112.2 },
      inputs: [
        { field: 'torque', declared: '9.2 Nm @ 12V', dialect: 'torque.nm.at_voltage' },
        { field: 'weight', declared: '82g', dialect: 'weight.g' },
      ],
    });
    expect(o.red_lines[1]).toMatchObject({ id: 'RL-02', status: 'cannot_evaluate', missing: ['peak_torque'] });
    expect(o.note).toMatch(/manual review/);
    expect(o.note).toMatch(/not a verdict/);
    expect(o.quarantine_hint).toBeNull();
    expect(o.meta).toEqual({ license: 'CC BY 4.0', attribution: ATTRIBUTION });
  });

  it('a red line that fires carries its numbers and what to ask the vendor', async () => {
    const o = output(await call(client, 'screen_part', { id: 'ACT-hd-leaderdrive-lcs' }), screenPartTool.outputSchema);
    const rl03 = o.red_lines.find((r: { id: string }) => r.id === 'RL-03');
    expect(rl03).toMatchObject({ status: 'fires', numbers: { backlash_arcmin: 1, load: null } });
    expect(rl03.ask_vendor.length).toBeGreaterThan(0);
    expect(o.summary.fires).toBe(1);
  });

  it('a missing id is not_found with did_you_mean', async () => {
    const body = errorBody(await call(client, 'screen_part', { id: 'ACT-0001x' }));
    expect(body).toMatchObject({ code: 'not_found', id: 'ACT-0001x' });
    expect((body.did_you_mean as string[]).length).toBeGreaterThan(0);
    expect((body.did_you_mean as string[]).every((id) => id.toUpperCase().startsWith('ACT-'))).toBe(true);
    expect(errorBody(await call(client, 'screen_part', { id: '' }))).toMatchObject({ code: 'invalid_input', field: 'id' });
  });

  it('REST GET /api/parts/:id/screen', async () => {
    const r = await fetch(`${srv.url}/api/parts/ACT-001/screen`);
    expect(r.status).toBe(200);
    const o = (await r.json()) as any;
    expect(o.summary).toEqual({ fires: 0, does_not_fire: 2, cannot_evaluate: 4 });
    expect(o).toEqual((await call(client, 'screen_part', { id: 'ACT-001' })).structuredContent);
    const miss = await fetch(`${srv.url}/api/parts/NOPE-404/screen`);
    expect(miss.status).toBe(404);
    expect(await miss.json()).toMatchObject({ code: 'not_found', id: 'NOPE-404' });
  });
});

describe('parameter semantics dataset', () => {
  it('GET /api/parameter_semantics.json has every top-level key of the spec and the licence', async () => {
    const r = await fetch(`${srv.url}/api/parameter_semantics.json`);
    expect(r.status).toBe(200);
    const d = (await r.json()) as any;
    expect(Object.keys(d)).toEqual(SPEC_KEYS);
    expect(d.meta).toMatchObject({ version: '1.0.0', license: 'CC BY 4.0', attribution: ATTRIBUTION });
    expect(d.meta.access).toMatchObject({ rest: 'GET /api/parameter_semantics.json', mcp_resource: 'robotparts://datasets/parameter-semantics' });
    expect(d.red_lines.map((x: { id: string }) => x.id)).toEqual(['RL-01', 'RL-02', 'RL-03', 'RL-04', 'RL-05', 'RL-06']);
    expect(d.known_defects.map((x: { id: string }) => x.id)).toEqual(['KD-01', 'KD-02']);
    expect(d.buyer_checklist).toHaveLength(7);
    expect(d.citation.license).toBe('CC BY 4.0');
    // Scope: every record of the loaded catalogue, quarantined included.
    const all = await deps.catalogue.all();
    expect(d.scope.entities_scanned).toBe(all.length);
    expect(d.scope.quarantined_in_scan).toBe(all.filter((e) => e.quarantine).length);
    expect(d.scope.fields_covered).toEqual(['torque', 'speed', 'weight', 'voltage', 'position_resolution']);
  });

  it('is the MCP resource robotparts://datasets/parameter-semantics', async () => {
    const list = await client.listResources();
    expect(list.resources.map((x) => x.uri)).toContain('robotparts://datasets/parameter-semantics');
    const res = await client.readResource({ uri: 'robotparts://datasets/parameter-semantics' });
    const d = JSON.parse((res.contents[0] as { text: string }).text);
    expect(Object.keys(d)).toEqual(SPEC_KEYS);
    expect(d.meta.license).toBe('CC BY 4.0');
  });

  it('industry_evidence is counted from the catalogue the server loaded', async () => {
    const clock = () => new Date('2030-01-02T03:04:05.000Z');
    const serve = async (entities: StoredEntity[]) => {
      const d = buildDeps(testConfig(), { log: silentLogger, clock, catalogueData: catalogueData(entities) });
      const s = await startHttpServer(d);
      try {
        const rest = (await (await fetch(`${s.url}/api/parameter_semantics.json`)).json()) as any;
        const mem = await memoryClient(d);
        const res = await mem.client.readResource({ uri: 'robotparts://datasets/parameter-semantics' });
        await mem.close();
        expect(JSON.parse((res.contents[0] as { text: string }).text)).toEqual(rest);
        return rest;
      } finally {
        await s.close();
        d.close();
      }
    };

    const one = await serve([
      makeEntity({ id: 'ACT-001', declared: { torque: '4.1 Nm @ 12V', speed: '0.11 sec/60°', weight: '82g' } }),
      makeEntity({ id: 'ACT-002', declared: { torque: '1.5 Nm', speed: '1 Mbps' } }),
      makeEntity({ id: 'ACT-003', declared: { torque: '2.5 Nm' }, quarantine: true, quarantine_reason: 'test' }),
      makeEntity({ id: 'SENS-001', category: 'sensors' }),
    ]);
    expect(one.meta.generated_at).toBe('2030-01-02T03:04:05.000Z');
    expect(one.scope).toMatchObject({ entities_scanned: 4, actuator_class_entities: 3, quarantined_in_scan: 1 });
    expect(one.industry_evidence.by_field.torque).toMatchObject({
      declared_count: 3,
      absent_count: 1,
      distinct_notations: 2,
      top_notations: [
        { notation: '<n> Nm', count: 2 },
        { notation: '<n> Nm @ <n>V', count: 1 },
      ],
    });
    expect(one.industry_evidence.by_field.speed).toMatchObject({ declared_count: 2, absent_count: 2, distinct_notations: 2 });
    expect(one.industry_evidence.by_field.weight).toMatchObject({ declared_count: 1, absent_count: 3 });
    const speed = Object.fromEntries(one.industry_evidence.dialect_breakdown.speed.map((r: { dialect: string; count: number }) => [r.dialect, r.count]));
    expect(speed).toMatchObject({ 'speed.servo.sec_deg': 1, 'speed.comm.bps': 1, absent: 2 });
    expect(one.known_defects[1].problem).toMatch(/^torque is declared for 3 of 4 entities, in 2 notations; 3 of them/);

    const two = await serve([
      makeEntity({ id: 'ACT-001', declared: { torque: '15 kgf·cm' } }),
      makeEntity({ id: 'ACT-002' }),
    ]);
    expect(two.scope).toMatchObject({ entities_scanned: 2, actuator_class_entities: 2, quarantined_in_scan: 0 });
    expect(two.industry_evidence.by_field.torque).toMatchObject({ declared_count: 1, absent_count: 1, distinct_notations: 1, top_notations: [{ notation: '<n> kgf·cm', count: 1 }] });
    expect(two.industry_evidence.by_field.speed).toMatchObject({ declared_count: 0, absent_count: 2 });
  });

  it('OpenAPI lists the new paths', async () => {
    const o = (await (await fetch(`${srv.url}/openapi.json`)).json()) as { paths: Record<string, unknown> };
    expect(Object.keys(o.paths)).toEqual(expect.arrayContaining(['/api/parameters/convert', '/api/parts/{id}/screen', '/api/parameter_semantics.json']));
  });
});
