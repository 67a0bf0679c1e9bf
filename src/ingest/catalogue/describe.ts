/**
 * The `description` of a record, generated in English from its facts only (never upstream
 * prose), e.g. "Smart servo by ROBOTIS (Actuators); protocol DYNAMIXEL Protocol 2.0;
 * interface TTL/RS485; supply 10.0~14.8V; torque 9.2 Nm @ 12V." Declared values appear only when
 * printable ASCII (vendor notation as written); Chinese remarks are left to `declared`. Names stay as written (a Chinese manufacturer name is a name).
 */

export interface DescribeInput {
  type: string | null;
  type_en: string | null;
  category_name: string;
  manufacturer: string | null;
  protocol: string;
  interface: string;
  status: string | null;
  year: number | null;
  /** Declared supply voltage and torque, verbatim (they make "48V" or "Nm" findable by search). */
  voltage?: string;
  torque?: string;
}

const PRINTABLE_ASCII = /^[\x20-\x7e]+$/;

/** "smart_servo" -> "Smart servo"; "AI Accelerator" stays. */
export function humanizeType(t: string): string {
  // Upper-case vendor terms (BLDC, SEA, FPGA) are kept as written; only the first letter is raised.
  const out = t.replace(/_/g, ' ').replace(/\s+/g, ' ').trim();
  return out.charAt(0).toUpperCase() + out.slice(1);
}

export function describe(f: DescribeInput): string {
  const typeText = f.type_en && PRINTABLE_ASCII.test(f.type_en) ? f.type_en : f.type && PRINTABLE_ASCII.test(f.type) ? f.type : null;
  const head = typeText ? humanizeType(typeText) : singular(f.category_name);
  const parts = [`${head}${f.manufacturer ? ` by ${f.manufacturer}` : ''} (${f.category_name})`];
  if (f.protocol !== 'N/A') parts.push(`protocol ${f.protocol}`);
  if (f.interface !== 'N/A') parts.push(`interface ${f.interface}`);
  if (f.voltage && PRINTABLE_ASCII.test(f.voltage)) parts.push(`supply ${f.voltage}`);
  if (f.torque && PRINTABLE_ASCII.test(f.torque)) parts.push(`torque ${f.torque}`);
  if (f.status) parts.push(`status ${f.status.replace(/_/g, ' ')}`);
  if (f.year !== null) parts.push(`year ${f.year}`);
  return `${parts.join('; ')}.`;
}

function singular(categoryName: string): string {
  const first = categoryName.split(' and ')[0] ?? categoryName;
  if (first.endsWith('ies')) return `${first.slice(0, -3)}y`;
  return first.endsWith('s') && !first.endsWith('ss') ? first.slice(0, -1) : first;
}
