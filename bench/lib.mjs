// Shared pieces of the benchmark: paths, the catalogue under test (shipped or synthetic),
// the query set, percentiles, and the in-process HTTP load generator. Plain ESM, node 20.
import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const DIST = path.join(ROOT, 'dist');
export const SHIPPED_ENTITIES = path.join(ROOT, 'data', 'catalogue', 'entities.json');

/** Imports a module of the built server (dist/), with a readable failure when not built. */
export async function importDist(rel) {
  const file = path.join(DIST, rel);
  if (!fs.existsSync(file)) throw new Error(`${path.relative(ROOT, file)} is missing: run \`npm run build\` first (npm run bench does).`);
  return import(new URL(`file://${file}`).href);
}

/** searchParts()' context over a server's deps, as a REST call gets it (partsContext in src/tools/context.ts). */
export async function searchContext(deps) {
  const { partsContext } = await importDist('tools/context.js');
  return partsContext({ deps, surface: 'rest' });
}

/**
 * ~30 realistic queries: single terms, two-term ANDs, vendor model numbers, Chinese name
 * tokens and misses. Each one is run as-is against every surface.
 */
export const QUERIES = [
  'servo',
  'dynamixel',
  'dynamixel xm540',
  'harmonic',
  'harmonic drive',
  'jetson orin',
  'nvidia',
  'ethercat',
  'realsense',
  'realsense d455',
  'can joint',
  'imu',
  'unitree',
  't-motor ak80',
  'force torque',
  'tactile',
  'gripper',
  'onrobot',
  'qualcomm',
  'dexterous hand',
  'humanoid',
  'frameless',
  'reducer',
  'planetary',
  'lidar',
  'ros2',
  '雷赛智能',
  '宇立仪器',
  '卧龙电驱',
  'xyzzyplonk', // a miss
  'servo ethercat', // two-term AND, few hits
  'orin nano', // two-term AND, may miss
];

/**
 * The broad-query set of issue 29, derived from the catalogue itself (never hand-picked): the
 * `n` most frequent words of the records' names, makers and types, as an agent's first calls
 * usually are. A word is a run of letters or digits (so `joint_motor` gives `joint` and
 * `motor`, and a run of CJK characters is one word), lower-cased, at least 2 characters, and
 * counted once per record (the number of records whose name, maker or type holds it). Ties are
 * broken by the word itself, so the set is the same on every run over the same file.
 */
export function frequentWords(entities, n) {
  const counts = new Map();
  for (const e of entities) {
    const text = [e.name, e.name_en, e.manufacturer, e.type].filter((v) => typeof v === 'string').join(' ').toLowerCase();
    for (const w of new Set(text.match(/[\p{L}\p{N}]+/gu) ?? [])) if ([...w].length >= 2) counts.set(w, (counts.get(w) ?? 0) + 1);
  }
  return [...counts].sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0)).slice(0, n).map(([w]) => w);
}

// ---------------------------------------------------------------------------------------
// Synthetic fallback catalogue (used only when data/catalogue/entities.json is absent).
// Every value is invented here: no upstream text.

function prng(seed) {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = s;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const FAMILIES = [
  { cat: 'actuators', mfr: 'ROBOTIS', stem: 'DYNAMIXEL XM540', type: 'smart_servo', proto: 'RS485', apps: ['humanoid'] },
  { cat: 'actuators', mfr: 'ROBOTIS', stem: 'DYNAMIXEL XM430', type: 'smart_servo', proto: 'TTL', apps: ['arm'] },
  { cat: 'actuators', mfr: 'Unitree', stem: 'Unitree Joint Motor', type: 'joint_motor', proto: 'CAN', apps: ['quadruped', 'humanoid'] },
  { cat: 'actuators', mfr: 'T-Motor', stem: 'T-Motor AK80', type: 'robot_joint_motor', proto: 'CAN', apps: ['legged'] },
  { cat: 'actuators', mfr: 'Harmonic Drive', stem: 'Harmonic Drive CSF', type: 'harmonic_reducer', proto: 'N/A', apps: ['arm'] },
  { cat: 'actuators', mfr: 'CubeMars', stem: 'CubeMars Frameless Torque Motor', type: 'frameless_torque_motor', proto: 'N/A', apps: ['humanoid'] },
  { cat: 'actuators', mfr: '雷赛智能', stem: '雷赛智能 关节模组', type: 'integrated_joint_module', proto: 'EtherCAT', apps: ['humanoid'] },
  { cat: 'actuators', mfr: '卧龙电驱', stem: '卧龙电驱 无框力矩电机', type: 'frameless_torque_motor', proto: 'N/A', apps: [] },
  { cat: 'actuators', mfr: 'OnRobot', stem: 'OnRobot Gripper', type: 'electric_gripper', proto: 'EtherCAT', apps: ['cobot'] },
  { cat: 'actuators', mfr: 'Schunk', stem: 'Schunk Dexterous Hand', type: 'dexterous_hand', proto: 'EtherCAT', apps: ['humanoid'] },
  { cat: 'sensors', mfr: 'Intel', stem: 'Intel RealSense D455', type: 'depth_camera', proto: 'USB3', apps: ['navigation'] },
  { cat: 'sensors', mfr: 'Bosch', stem: 'Bosch IMU', type: 'imu', proto: 'SPI', apps: [] },
  { cat: 'sensors', mfr: '宇立仪器', stem: '宇立仪器 六维力传感器', type: 'force_torque_6axis', proto: 'EtherCAT', apps: ['humanoid'] },
  { cat: 'sensors', mfr: 'Hesai', stem: 'Hesai Lidar', type: 'lidar', proto: 'Ethernet', apps: ['navigation'] },
  { cat: 'sensors', mfr: 'GelSight', stem: 'Tactile Sensor', type: 'tactile', proto: 'USB', apps: ['hand'] },
  { cat: 'chips', mfr: 'NVIDIA', stem: 'NVIDIA Jetson Orin', type: 'sbc', proto: 'N/A', apps: ['edge_ai'] },
  { cat: 'chips', mfr: 'Qualcomm', stem: 'Qualcomm Robotics RB', type: 'soc', proto: 'N/A', apps: ['edge_ai'] },
  { cat: 'protocols', mfr: null, stem: 'EtherCAT Profile', type: 'fieldbus', proto: 'N/A', apps: [] },
  { cat: 'protocols', mfr: null, stem: 'CAN FD Profile', type: 'fieldbus', proto: 'N/A', apps: [] },
  { cat: 'protocols', mfr: null, stem: 'ROS2 DDS Profile', type: 'middleware', proto: 'N/A', apps: [] },
];

export const SYNTHETIC_CATEGORIES = [
  { slug: 'actuators', name: 'Actuators', spec_name: 'actuators' },
  { slug: 'sensors', name: 'Sensors', spec_name: 'sensors' },
  { slug: 'chips', name: 'AI chips', spec_name: 'chips' },
  { slug: 'protocols', name: 'Protocols', spec_name: 'protocols' },
];

/** `n` synthetic records in the StoredEntity shape, deterministic. */
export function syntheticEntities(n = 800) {
  const rnd = prng(20260908);
  const out = [];
  for (let i = 0; i < n; i++) {
    const f = FAMILIES[i % FAMILIES.length];
    const model = `${100 + Math.floor(rnd() * 900)}-${String.fromCharCode(65 + Math.floor(rnd() * 26))}${i}`;
    const name = `${f.stem} ${model}`;
    const prefix = { actuators: 'ACT', sensors: 'SENS', chips: 'CHIP', protocols: 'PROT' }[f.cat];
    out.push({
      id: `${prefix}-SYN-${String(i).padStart(4, '0')}`,
      name,
      name_en: name,
      category: f.cat,
      entity_kind: f.cat === 'protocols' ? 'protocol' : 'component',
      manufacturer: f.mfr,
      type: f.type,
      protocol: f.proto,
      interface: f.proto,
      interfaces: f.proto === 'N/A' ? [] : [f.proto],
      voltage: 'N/A',
      weight: 'N/A',
      torque: '',
      ros_support: null,
      applications: f.apps,
      price_range: null,
      standard: null,
      status: null,
      year: null,
      source_urls: [],
      source_tier: 'C',
      source_robot: null,
      source_license: null,
      oss: false,
      mechanical_interface: { status: 'not_declared', mount_type: null, flange: null },
      declared: {},
      description: `Synthetic ${f.type.replace(/_/g, ' ')} record for benchmarking${f.mfr ? `, manufacturer ${f.mfr}` : ''}.`,
      quarantine: i % 10 === 7,
      quarantine_reason: i % 10 === 7 ? 'placeholder_id' : null,
      duplicate_of: null,
      deep: { price: null, compatibility: [], confidence: null, sources: [], compliance: {}, localization_ratio: null },
    });
  }
  return out;
}

/**
 * The data folder to benchmark: the shipped one when data/catalogue/entities.json exists,
 * else (or when forced) a temporary folder holding 800 synthetic records in the same file format.
 */
export function prepareDataDir({ forceSynthetic = false } = {}) {
  if (!forceSynthetic && fs.existsSync(SHIPPED_ENTITIES)) {
    return { dataDir: path.join(ROOT, 'data'), source: 'shipped', file: SHIPPED_ENTITIES, cleanup: () => {} };
  }
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'rp-bench-'));
  // The other shipped datasets (plans, buses, ...) are linked in unchanged: only the catalogue is synthetic.
  const shippedData = path.join(ROOT, 'data');
  if (fs.existsSync(shippedData)) {
    for (const name of fs.readdirSync(shippedData)) if (name !== 'catalogue') fs.symlinkSync(path.join(shippedData, name), path.join(tmp, name));
  }
  const dir = path.join(tmp, 'catalogue');
  fs.mkdirSync(dir);
  const meta = { dataset_version: 'synthetic-bench', license: 'CC BY 4.0', attribution: 'synthetic', source: 'bench/lib.mjs', snapshot_commit: null, imported_at: null };
  const file = path.join(dir, 'entities.json');
  fs.writeFileSync(file, JSON.stringify({ meta, entities: syntheticEntities(800) }, null, 2));
  fs.writeFileSync(path.join(dir, 'categories.json'), JSON.stringify({ categories: SYNTHETIC_CATEGORIES }, null, 2));
  return { dataDir: tmp, source: 'synthetic', file, cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }) };
}

/** Config for the server under test: loopback, free port, in-memory SQLite, no rate limit. */
export function benchConfigOverrides(dataDir) {
  return { host: '127.0.0.1', port: 0, dbPath: ':memory:', dataDir, rateLimitFree: 0, rateLimitPaid: 0, logLevel: 'error' };
}

// ---------------------------------------------------------------------------------------
// Statistics

/** Nearest-rank percentile of an ascending array (q in 0..1). */
export function percentile(sorted, q) {
  if (sorted.length === 0) return NaN;
  const rank = Math.ceil(q * sorted.length);
  return sorted[Math.min(sorted.length - 1, Math.max(0, rank - 1))];
}

export function summarise(samples) {
  const s = Float64Array.from(samples).sort();
  return { n: s.length, p50: percentile(s, 0.5), p99: percentile(s, 0.99), min: s[0], max: s[s.length - 1] };
}

// ---------------------------------------------------------------------------------------
// HTTP client and load generator

export const LOOPBACK = '127.0.0.1';

/** One request; resolves with status, headers and the whole body as text. */
export function send(agent, port, { method = 'GET', path: p, headers = {}, body }, timeoutMs = 10_000) {
  return new Promise((resolve, reject) => {
    const h = { ...headers };
    if (body !== undefined) h['content-length'] = Buffer.byteLength(body);
    const req = http.request({ host: LOOPBACK, port, method, path: p, headers: h, agent }, (res) => {
      const chunks = [];
      res.on('data', (c) => chunks.push(c));
      res.on('end', () => resolve({ status: res.statusCode, headers: res.headers, body: Buffer.concat(chunks).toString('utf8') }));
      res.on('error', reject);
    });
    req.setTimeout(timeoutMs, () => req.destroy(new Error(`timeout after ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Fixed number of requests at fixed concurrency over one keep-alive agent. Each worker w
 * takes the next request index i, builds the request with build(i, w), and check(res, i)
 * returns null when the answer is right or a reason string (counted as an error).
 * Stops by itself: after `total` requests or at `deadlineMs`, whichever comes first.
 */
export async function runLoad({ port, total, concurrency, build, check, timeoutMs = 10_000, deadlineMs = 30_000 }) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: concurrency });
  const latencies = [];
  const errorReasons = new Map();
  let next = 0;
  let ok = 0;
  let errors = 0;
  const started = performance.now();
  const stopAt = started + deadlineMs;
  const note = (why) => {
    errors++;
    errorReasons.set(why, (errorReasons.get(why) ?? 0) + 1);
  };
  const worker = async (w) => {
    while (next < total && performance.now() < stopAt) {
      const i = next++;
      const t0 = performance.now();
      try {
        const res = await send(agent, port, build(i, w), timeoutMs);
        const t1 = performance.now();
        const why = check(res, i);
        if (why) note(why);
        else {
          ok++;
          latencies.push(t1 - t0);
        }
      } catch (err) {
        note(err instanceof Error ? err.message : String(err));
      }
    }
  };
  await Promise.all(Array.from({ length: concurrency }, (_, w) => worker(w)));
  const elapsedMs = performance.now() - started;
  agent.destroy();
  const lat = summarise(latencies);
  return {
    requested: total,
    completed: ok + errors,
    ok,
    errors,
    error_reasons: Object.fromEntries(errorReasons),
    timed_out: ok + errors < total,
    elapsed_ms: elapsedMs,
    rps: ok / (elapsedMs / 1000),
    p50_ms: lat.p50,
    p99_ms: lat.p99,
  };
}

// ---------------------------------------------------------------------------------------
// MCP over Streamable HTTP, by hand (the load generator must be the same for both servers)

export const MCP_ACCEPT = 'application/json, text/event-stream';

/** The JSON-RPC messages in a response body, JSON or SSE. */
export function rpcMessages(res) {
  const type = String(res.headers['content-type'] ?? '');
  if (type.includes('text/event-stream')) {
    const out = [];
    for (const event of res.body.split(/\r?\n\r?\n/)) {
      const data = event
        .split(/\r?\n/)
        .filter((l) => l.startsWith('data:'))
        .map((l) => l.slice(5).replace(/^ /, ''))
        .join('\n');
      if (data) out.push(JSON.parse(data));
    }
    return out;
  }
  return res.body ? [JSON.parse(res.body)].flat() : [];
}

/** initialize + notifications/initialized; returns the headers later requests must carry. */
export async function openMcpSession(port, protocolVersion) {
  const agent = new http.Agent({ keepAlive: false });
  try {
    const base = { 'content-type': 'application/json', accept: MCP_ACCEPT };
    const init = await send(agent, port, {
      method: 'POST',
      path: '/mcp',
      headers: base,
      body: JSON.stringify({ jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'robot-parts-bench', version: '0' } } }),
    });
    const sid = init.headers['mcp-session-id'];
    if (init.status !== 200 || !sid) throw new Error(`initialize failed: ${init.status} ${init.body.slice(0, 200)}`);
    const reply = rpcMessages(init).find((m) => m.id === 0);
    const version = reply?.result?.protocolVersion ?? protocolVersion;
    const headers = { ...base, 'mcp-session-id': String(sid), 'mcp-protocol-version': version };
    const note = await send(agent, port, { method: 'POST', path: '/mcp', headers, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
    if (note.status !== 202) throw new Error(`notifications/initialized answered ${note.status}`);
    return headers;
  } finally {
    agent.destroy();
  }
}

export async function closeMcpSession(port, headers) {
  const agent = new http.Agent({ keepAlive: false });
  try {
    await send(agent, port, { method: 'DELETE', path: '/mcp', headers }, 5_000);
  } catch {
    // the server is stopped right after; a failed DELETE changes nothing measured
  } finally {
    agent.destroy();
  }
}

export function toolsCallBody(id, q) {
  return JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name: 'search_parts', arguments: { q } } });
}

/** null when the body carries a successful tools/call result for request `id`, else why not. */
export function checkToolResult(res, id) {
  if (res.status !== 200) return `HTTP ${res.status}`;
  let msgs;
  try {
    msgs = rpcMessages(res);
  } catch {
    return 'unparseable body';
  }
  const m = msgs.find((x) => x.id === id);
  if (!m) return 'no response message';
  if (m.error) return `JSON-RPC error ${m.error.code}`;
  if (m.result?.isError) return 'tool error';
  return null;
}

// ---------------------------------------------------------------------------------------
// Scaled synthetic catalogue (generated per run in a temp dir, never committed)

/**
 * A catalogue of `size` records made from the shipped ones: copy k of record R is R with the
 * id `${R.id}-X${k}` (and duplicate_of suffixed the same way), so every copy is a distinct,
 * valid record with the same searchable text. Written record by record, never held whole.
 * Other datasets are linked in unchanged. Returns the data dir and a cleanup function.
 */
export function writeScaledCatalogue(sourceFile, size) {
  const src = JSON.parse(fs.readFileSync(sourceFile, 'utf8'));
  const base = src.entities;
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), `rp-bench-${size}-`));
  const shippedData = path.join(ROOT, 'data');
  if (fs.existsSync(shippedData)) {
    for (const name of fs.readdirSync(shippedData)) if (name !== 'catalogue') fs.symlinkSync(path.join(shippedData, name), path.join(tmp, name));
  }
  const dir = path.join(tmp, 'catalogue');
  fs.mkdirSync(dir);
  const catFile = path.join(path.dirname(sourceFile), 'categories.json');
  if (fs.existsSync(catFile)) fs.copyFileSync(catFile, path.join(dir, 'categories.json'));
  const fd = fs.openSync(path.join(dir, 'entities.json'), 'w');
  try {
    fs.writeSync(fd, `{"meta":${JSON.stringify({ ...src.meta, dataset_version: `${src.meta.dataset_version}-x${size}` })},"entities":[`);
    for (let i = 0; i < size; i++) {
      const e = base[i % base.length];
      const k = Math.floor(i / base.length);
      const copy = k === 0 ? e : { ...e, id: `${e.id}-X${k}`, duplicate_of: e.duplicate_of ? `${e.duplicate_of}-X${k}` : e.duplicate_of };
      fs.writeSync(fd, (i ? ',' : '') + JSON.stringify(copy));
    }
    fs.writeSync(fd, ']}');
  } finally {
    fs.closeSync(fd);
  }
  return { dataDir: tmp, cleanup: () => fs.rmSync(tmp, { recursive: true, force: true }) };
}

// ---------------------------------------------------------------------------------------
// stdio cold start

/**
 * Spawns `node <args>` speaking MCP on stdio, sends initialize, notifications/initialized and
 * tools/list, and resolves (after the process has exited, so runs never overlap) with `ms`, the
 * milliseconds from spawn to the tools/list response, and `list_ms`, from sending tools/list to its
 * response: what the server spends on the list itself once it is up (issue 47: a prebuilt list that
 * is rebuilt on an installed copy shows here, not hidden behind node's own start).
 */
export function stdioColdStart(args, env, protocolVersion, timeoutMs = 30_000) {
  return new Promise((resolve, reject) => {
    const t0 = performance.now();
    const child = spawn(process.execPath, args, { env: { ...process.env, ...env }, stdio: ['pipe', 'pipe', 'ignore'] });
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`stdio ${args.join(' ')}: no tools/list answer within ${timeoutMs} ms`));
    }, timeoutMs);
    let buf = '';
    let tList = 0;
    child.stdout.on('data', (chunk) => {
      buf += chunk;
      let nl;
      while ((nl = buf.indexOf('\n')) >= 0) {
        const line = buf.slice(0, nl);
        buf = buf.slice(nl + 1);
        let msg;
        try {
          msg = JSON.parse(line);
        } catch {
          continue;
        }
        if (msg.id === 1) {
          child.stdin.write(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) + '\n');
          tList = performance.now();
          child.stdin.write(JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/list' }) + '\n');
        } else if (msg.id === 2) {
          const ms = performance.now() - t0;
          const listMs = performance.now() - tList;
          clearTimeout(timer);
          // Settled once the process has exited: a child still busy (or shutting down) after its
          // answer must not take CPU from the next measured start.
          const settle = () => (msg.result?.tools?.length ? resolve({ ms, list_ms: listMs }) : reject(new Error('tools/list returned no tools')));
          if (child.exitCode !== null || child.signalCode !== null) settle();
          else {
            child.once('exit', settle);
            child.kill();
          }
        }
      }
    });
    child.on('error', reject);
    child.stdin.write(
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion, capabilities: {}, clientInfo: { name: 'robot-parts-bench', version: '0' } } }) + '\n',
    );
  });
}
