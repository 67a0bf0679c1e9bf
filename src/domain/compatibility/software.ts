/**
 * Software dimension: ROS / ROS 2 support (ros_support and ROS mentions) and SDK mentions in the
 * free fields protocol, interface and interfaces.
 *
 * A side supports ROS when ros_support is true or a ROS mention exists; it declares no ROS when
 * ros_support is false and no mention exists; otherwise (null, no mention) it is undeclared.
 * Rules, first match wins:
 * 1. Both support ROS -> compatible; when both name generations and they share none (ROS 1 only vs
 *    ROS 2 only) -> adapter_required (ros1_bridge), unless rule 2 applies. A side that does not name
 *    its generation becomes a condition.
 * 2. Both mention the same SDK -> compatible. Named SDKs match by name ("Dynamixel SDK"); generic
 *    ones ("Python SDK", "SDK") match only for the same manufacturer (each vendor's own SDK).
 * 3. One side supports ROS and the other declares no ROS -> adapter_required: a ROS driver for the
 *    other side, which is not declared to exist.
 * 4. Otherwise -> unknown. Software never yields incompatible: declared data cannot show that no
 *    integration is possible.
 */
import type { StoredEntity } from '../catalogue/entity.js';
import type { BusTable } from './buses.js';
import { splitPieces } from './buses.js';
import { isSdkMention, rosMention, sdkKey } from './software-tokens.js';
import { ev, type RosDeclaration, type SoftwareResult } from './types.js';
import { memoReading } from '../shared/memo.js';

interface SoftwareReading {
  ros: RosDeclaration;
  rosMentions: string[];
  sdks: { written: string; key: string | null }[];
}

const readSoftware = memoReading(readSoftwareOnce);

function readSoftwareOnce(table: BusTable, e: StoredEntity): SoftwareReading {
  const pieces = [e.protocol, e.interface, ...e.interfaces]
    .filter((v) => v.trim() !== '' && !/^n\/?a$/i.test(v.trim()))
    .flatMap((v) => splitPieces(table, v));
  const rosMentions: string[] = [];
  const gens = new Set<'ros1' | 'ros2'>();
  const sdks: SoftwareReading['sdks'] = [];
  for (const p of pieces) {
    const r = rosMention(p);
    if (r) {
      rosMentions.push(p);
      if (r.generation) gens.add(r.generation);
    } else if (isSdkMention(p) && !sdks.some((s) => s.written === p)) {
      sdks.push({ written: p, key: sdkKey(p, e.manufacturer) });
    }
  }
  const supported = e.ros_support === true || rosMentions.length > 0 ? true : e.ros_support === false ? false : null;
  return { ros: { supported, generations: [...gens].sort() }, rosMentions, sdks };
}

export function softwareDimension(a: StoredEntity, b: StoredEntity, table: BusTable): SoftwareResult {
  const sa = readSoftware(table, a);
  const sb = readSoftware(table, b);
  const evidence = (['a', 'b'] as const).flatMap((s) => {
    const e = s === 'a' ? a : b;
    const r = s === 'a' ? sa : sb;
    const out = [ev(s, 'ros_support', e.ros_support)];
    const mentions = [...r.rosMentions, ...r.sdks.map((x) => x.written)];
    if (mentions.length > 0) out.push(ev(s, 'interfaces/protocol/interface (software mentions)', mentions));
    return out;
  });
  const sharedSdks = sa.sdks.filter((x) => x.key !== null && sb.sdks.some((y) => y.key === x.key)).map((x) => x.written);
  const detail = {
    ros_a: sa.ros,
    ros_b: sb.ros,
    sdks_a: sa.sdks.map((x) => x.written),
    sdks_b: sb.sdks.map((x) => x.written),
    shared_sdks: sharedSdks,
  };
  const conditions: string[] = [];
  for (const [s, r, e] of [['a', sa, a], ['b', sb, b]] as const) {
    if (e.ros_support === false && r.rosMentions.length > 0) {
      conditions.push(`${s} has ros_support false but mentions ${r.rosMentions.join(', ')}; the mention was used.`);
    }
  }
  const genName = (g: 'ros1' | 'ros2') => (g === 'ros1' ? 'ROS 1' : 'ROS 2');

  if (sa.ros.supported && sb.ros.supported) {
    const ga = sa.ros.generations;
    const gb = sb.ros.generations;
    const disjoint = ga.length > 0 && gb.length > 0 && !ga.some((g) => gb.includes(g));
    if (disjoint && sharedSdks.length === 0) {
      return {
        verdict: 'adapter_required',
        reason: `Both support ROS, but a names ${ga.map(genName).join(', ')} only and b ${gb.map(genName).join(', ')} only.`,
        evidence,
        conditions,
        adapters: ['ros1_bridge between ROS 1 and ROS 2'],
        detail,
      };
    }
    if (!disjoint) {
      for (const [s, g] of [['a', ga], ['b', gb]] as const) {
        if (g.length === 0) conditions.push(`${s} does not say which ROS generation (ROS 1 or ROS 2) it supports.`);
      }
      return { verdict: 'compatible', reason: 'Both declare ROS support.', evidence, conditions, adapters: [], detail };
    }
  }
  if (sharedSdks.length > 0) {
    return { verdict: 'compatible', reason: `Both mention ${sharedSdks.join(', ')}.`, evidence, conditions, adapters: [], detail };
  }
  if ((sa.ros.supported === true && sb.ros.supported === false) || (sa.ros.supported === false && sb.ros.supported === true)) {
    const without = sa.ros.supported === false ? 'a' : 'b';
    return {
      verdict: 'adapter_required',
      reason: `${without === 'a' ? 'b' : 'a'} supports ROS; ${without} declares no ROS support, so it needs a ROS driver of its own to join a ROS system.`,
      evidence,
      conditions,
      adapters: [`ROS driver for ${without} (not declared to exist)`],
      detail,
    };
  }
  const why = (['a', 'b'] as const)
    .map((s) => {
      const r = s === 'a' ? sa : sb;
      return r.ros.supported === null ? `${s} does not declare ROS support` : r.ros.supported === false ? `${s} declares no ROS support` : null;
    })
    .filter((x) => x !== null);
  return {
    verdict: 'unknown',
    reason: `${why.join('; ')}${why.length > 0 ? '; ' : ''}no SDK in common is mentioned.`,
    evidence,
    conditions,
    adapters: [],
    detail,
  };
}
