/**
 * Communication facts of one upstream record: protocol, interface (as written) and the list of
 * interfaces, read from top-level fields and from the record's `specs` sub-object the same way.
 *
 * Places read, in order (every filled field records the upstream paths it came from):
 *   protocol   <- top-level `protocol`, else `specs.protocol`
 *   interface  <- top-level `interface` (the written string), else the interfaces joined with "/"
 *   interfaces <- top-level `interfaces` (or, without one, the top-level `interface` split on "/"
 *                 and ","), then the entries of SPEC_INTERFACE_KEYS under `specs` / `key_specs`
 *                 (a string, or a list of strings), duplicates dropped.
 *
 * A `specs` value is carried only when it is written as interface names, not as a remark: a value
 * containing a CJK character (e.g. 总线 "CAN-FD（5Mbps 级），支持多关节级联", a sentence about
 * daisy-chaining) is left out and counted in the import report. Values are copied verbatim; the
 * communication dimension (src/domain/compatibility/buses.ts) decides what they name.
 */

/** `specs` / `key_specs` keys whose value names the record's bus or physical interface(s). */
export const SPEC_INTERFACE_KEYS = ['interfaces', 'interface', 'bus', '接口', '控制接口', '总线'] as const;
/** `specs` / `key_specs` keys whose value names the record's protocol. */
export const SPEC_PROTOCOL_KEYS = ['protocol', '协议', '通信协议'] as const;

const CJK = /[\u3000-\u303f\u3400-\u9fff\uf900-\ufaff\uff00-\uffef]/;

type Raw = Record<string, unknown>;

export interface CommFacts {
  protocol: string;
  interface: string;
  interfaces: string[];
  /** Field -> upstream paths, only for filled fields. */
  provenance: Record<string, string[]>;
  /** `specs` values under a mapped key left out because they read as a remark (path, value). */
  rejected: { path: string; value: string }[];
}

function asMap(v: unknown): Raw | null {
  return v !== null && typeof v === 'object' && !Array.isArray(v) ? (v as Raw) : null;
}

function str(v: unknown): string | null {
  return typeof v === 'string' && v.trim() !== '' ? v : null;
}

function strings(v: unknown): string[] {
  if (typeof v === 'string') return v.trim() === '' ? [] : [v.trim()];
  if (Array.isArray(v)) return v.filter((x): x is string => typeof x === 'string').map((x) => x.trim()).filter((x) => x !== '');
  return [];
}

const isNA = (s: string) => /^n\/?a$/i.test(s.trim());

export function readComm(raw: Raw): CommFacts {
  const provenance: Record<string, string[]> = {};
  const rejected: CommFacts['rejected'] = [];
  const note = (field: string, path: string) => {
    const list = (provenance[field] ??= []);
    if (!list.includes(path)) list.push(path);
  };

  // Top level, as before.
  const ifaceText = str(raw.interface);
  const topList = [...new Set(strings(raw.interfaces))];
  const interfaces: string[] = [];
  const add = (x: string, path: string) => {
    if (isNA(x)) return;
    if (!interfaces.includes(x)) interfaces.push(x);
    note('interfaces', path);
  };
  if (topList.length > 0) for (const x of topList) add(x, 'interfaces');
  else if (ifaceText && !isNA(ifaceText)) for (const x of ifaceText.split(/[/,]/).map((p) => p.trim()).filter((p) => p !== '')) add(x, 'interface');

  // specs / key_specs sub-objects.
  let specProtocol: { value: string; path: string } | null = null;
  for (const from of ['specs', 'key_specs'] as const) {
    const map = asMap(raw[from]);
    if (!map) continue;
    for (const key of SPEC_INTERFACE_KEYS) {
      for (const v of strings(map[key])) {
        const path = `${from}.${key}`;
        if (CJK.test(v)) rejected.push({ path, value: v });
        else add(v, path);
      }
    }
    for (const key of SPEC_PROTOCOL_KEYS) {
      const v = str(map[key]);
      if (v === null || specProtocol !== null) continue;
      const path = `${from}.${key}`;
      if (CJK.test(v)) rejected.push({ path, value: v });
      else specProtocol = { value: v.trim(), path };
    }
  }

  let protocol = 'N/A';
  const topProtocol = str(raw.protocol);
  if (topProtocol !== null) {
    protocol = topProtocol;
    if (!isNA(topProtocol)) note('protocol', 'protocol');
  } else if (specProtocol) {
    protocol = specProtocol.value;
    note('protocol', specProtocol.path);
  }

  let iface = 'N/A';
  if (ifaceText !== null) {
    iface = ifaceText;
    if (!isNA(ifaceText)) note('interface', 'interface');
  } else if (interfaces.length > 0) {
    iface = interfaces.join('/');
    for (const p of provenance.interfaces ?? []) note('interface', p);
  }
  return { protocol, interface: iface, interfaces, provenance, rejected };
}
