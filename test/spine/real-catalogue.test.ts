/** The shipped catalogue through the REST bridge: stats, listings and search on real parts. */
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startHttpServer, type RunningServer } from '../../src/http/app.js';
import type { Deps } from '../../src/deps.js';
import { realDeps } from '../support/deps.js';

const committed = JSON.parse(fs.readFileSync(path.resolve(import.meta.dirname, '../../data/catalogue/entities.json'), 'utf8')) as {
  meta: { dataset_version: string };
  entities: { id: string; category: string; quarantine: boolean }[];
};

let deps: Deps;
let srv: RunningServer;
beforeAll(async () => {
  deps = realDeps();
  srv = await startHttpServer(deps);
});
afterAll(async () => {
  await srv.close();
  deps.close();
});

const get = async (p: string) => (await fetch(srv.url + p)).json() as Promise<Record<string, any>>;
const ids = (r: Record<string, any>) => (r.data as { id: string }[]).map((h) => h.id);

describe('shipped catalogue', () => {
  it('/api/stats reflects the imported data', async () => {
    const s = await get('/api/stats');
    expect(s.total).toBe(committed.entities.length);
    expect(s.quarantined).toBe(committed.entities.filter((e) => e.quarantine).length);
    expect(s.dataset_version).toBe(committed.meta.dataset_version);
    const actuators = s.categories.find((c: { slug: string }) => c.slug === 'actuators');
    expect(actuators.count).toBe(committed.entities.filter((e) => e.category === 'actuators').length);
    expect(s.categories.find((c: { slug: string }) => c.slug === 'robot_ai_models').spec_name).toBe('robot foundation models');
  });

  it('/api/entities.json lists every clean entity with summary fields', async () => {
    const r = await get('/api/entities.json');
    expect(r.count).toBe(committed.entities.filter((e) => !e.quarantine).length);
    expect(r.data).toHaveLength(r.count);
    expect(r.data[0]).not.toHaveProperty('declared');
  });

  it('finds real parts by id, name, manufacturer and type', async () => {
    expect(ids(await get('/api/search?q=ACT-001'))[0]).toBe('ACT-001');
    expect(ids(await get('/api/search?q=dynamixel'))).toEqual(expect.arrayContaining(['ACT-001', 'ACT-002']));
    expect(ids(await get('/api/search?q=robotis&limit=100'))).toContain('ACT-001'); // manufacturer
    expect(ids(await get('/api/search?q=smart_servo&limit=100'))).toContain('ACT-001'); // type
    expect(ids(await get('/api/search?q=harmonic%20drive'))).toContain('RED-004');
    expect(ids(await get('/api/search?q=jetson%20orin'))).toEqual(expect.arrayContaining(['CHIP-001', 'CHIP-002']));
    expect(ids(await get('/api/search?q=ethercat'))).toContain('PROTO-001');
    expect(ids(await get('/api/search?q=realsense'))).toContain('CHIP-010');
  });

  it('finds parts by declared supply voltage and bus ("a 48 V joint with EtherCAT")', async () => {
    const r = await get('/api/search?q=48v%20ethercat&limit=100');
    expect(ids(r)).toContain('ACT-017'); // declared 48V, EtherCAT
    for (const h of r.data as { voltage: string; protocol: string; interface: string }[]) {
      expect(`${h.voltage} ${h.protocol} ${h.interface}`.toLowerCase()).toContain('ethercat');
    }
  });

  it('keeps quarantined duplicates out of search unless asked', async () => {
    const r = await get('/api/search?q=jetson%20orin%20nx');
    expect(ids(r)).not.toContain('CHIP-66'); // upstream duplicate of CHIP-81
    expect(r.meta.quarantined_excluded).toBeGreaterThan(0);
    expect(ids(await get('/api/search?q=jetson%20orin%20nx&include_quarantine=true'))).toContain('CHIP-66');
  });
});
