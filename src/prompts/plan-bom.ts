import { definePrompt } from './define.js';

const FORMATS = ['csv', 'json'];

export const planBomPrompt = definePrompt({
  name: 'plan_bom',
  title: 'Plan a bill of materials',
  description: 'From a robot description or a part list to check_bom (voltage rails, buses, flanges, quarantine, red lines) and export_bom (costed CSV or JSON).',
  arguments: [
    { name: 'description', description: 'The robot (e.g. "1.2 m biped, 12 DoF legs, Jetson-class compute") or a part list, one part per line', required: true },
    { name: 'parts', description: 'Catalogue ids already chosen, comma-separated, each optionally with a quantity: "ACT-001 x4, SEN-002"', required: false },
    { name: 'format', description: 'Export format: csv (default) or json', required: false, complete: async (_deps, value) => FORMATS.filter((f) => f.startsWith(value.toLowerCase())) },
  ],
  render: (args) => {
    const format = FORMATS.includes((args.format ?? '').toLowerCase()) ? args.format!.toLowerCase() : 'csv';
    const chosen = (args.parts ?? '')
      .split(',')
      .map((p) => p.trim())
      .filter(Boolean)
      .map((p) => {
        const m = /^(\S+?)(?:\s*[x×*]\s*(\d+))?$/i.exec(p);
        return m ? { id: m[1], quantity: m[2] ? Number(m[2]) : 1 } : { id: p, quantity: 1 };
      });
    const items = chosen.length ? JSON.stringify(chosen) : null;
    return [
      `Plan the bill of materials for: ${args.description.trim()}`,
      '',
      'Use the robot-parts tools in this order:',
      items
        ? `1. The parts already chosen are items = ${items}. For each role still open, search_parts(where, category) with the role's requirements as spec filters (e.g. where: "torque_rated>=20 N·m; bus in CAN|CAN FD") picks catalogue parts; list_spec_fields(category) names the fields.`
        : '1. For each role (actuators per joint, sensors, compute, buses, power), search_parts(where, category) with the role\'s requirements as spec filters (e.g. where: "torque_rated>=20 N·m; bus in CAN|CAN FD"; list_spec_fields(category) names the fields) picks a catalogue part; build items = [{"id": ..., "quantity": ...}].',
      '2. check_bom(items): supply voltages no single rail covers, parts with no common bus or needing a bridge, flanges needing adapter plates, quarantined parts, red-line marks, and the dimensions the data cannot settle; with no problem it says how each device reaches its host.',
      '3. Resolve each problem it reports: swap a part (find_alternatives(id, must) offers parts of the same function), or accept it and say why. Run check_bom again until only accepted problems remain.',
      '4. Prices: the catalogue states no unit prices. find_where_used(q) shows what open-source robot BOMs paid for a part (quantity, unit price and currency as written); put a price you rely on in the item (price), in the currency of the BOM (currency).',
      `5. export_bom(items, project_name, format: "${format}") for the costed document (needs an API key with credits: api_key or the transport's key). A large export comes back as a resource_link: read it with resources/read.`,
      '',
      'Report the final items, the problems accepted, and what stays unknown. Quote values as declared; never invent a price or a value the data does not hold.',
    ].join('\n');
  },
});
