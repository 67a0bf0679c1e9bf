import { idsMatching } from '../resources/serve.js';
import { definePrompt } from './define.js';

export const checkMountingPrompt = definePrompt({
  name: 'check_mounting',
  title: 'Check how two parts mount',
  description: 'Two catalogue parts: whether and how they bolt together (ISO 9409-1 flange ruling, adapter plate) and whether they can be wired and driven together.',
  arguments: [
    { name: 'a', description: 'First part id, e.g. "ACT-001"', required: true, complete: (deps, value) => idsMatching(deps, value) },
    { name: 'b', description: 'Second part id', required: true, complete: (deps, value) => idsMatching(deps, value) },
  ],
  render: (args) => {
    const a = args.a.trim();
    const b = args.b.trim();
    return [
      `Check whether ${a} and ${b} can be mounted and used together.`,
      '',
      'Use the robot-parts tools in this order:',
      `1. check_compatibility(a: "${a}", b: "${b}"): four dimensions, mechanical (flange rulings), electrical (declared voltage ranges), communication (buses, bridges) and software.`,
      `2. get_part(id: "${a}") and get_part(id: "${b}") for the declared flange designations (e.g. "ISO9409-1-A50-4-M6").`,
      '3. rule_flange(a, b) with the two designations: identity, direct, or adapter_required with the blocking dimensions (pcd_mm, bolt_count).',
      `4. When an adapter plate is needed, export_bom(items: [{"id": "${a}", "quantity": 1}, {"id": "${b}", "quantity": 1}]) lists it under its 3D-print suggestions.`,
      '',
      'Answer: mounts directly / needs an adapter (which dimensions) / cannot be settled from the data, then the electrical and communication findings.',
      'A dimension the data does not declare is unknown, never compatible.',
    ].join('\n');
  },
});
