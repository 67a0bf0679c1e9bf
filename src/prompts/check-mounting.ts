import { idsMatching } from '../resources/serve.js';
import { definePrompt } from './define.js';

export const checkMountingPrompt = definePrompt({
  name: 'check_mounting',
  title: 'Check how two parts mount',
  description: 'Two catalogue parts: whether and how they bolt together (ISO 9409-1 flange ruling, adapter plate) and whether they can be wired and driven together, in one call.',
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
      `1. check_compatibility(a: "${a}", b: "${b}") answers all of it in one call: mechanical (the ISO 9409-1 flange ruling on both parts' declared flanges: identity, direct, or adapter_required with the blocking dimensions pcd_mm and bolt_count), electrical (declared voltage ranges), communication (buses, the bridge needed) and software.`,
      '2. Only if you hold flange designations that are not catalogue parts (from a datasheet): rule_flange(a, b) with the two designations.',
      '',
      'Answer: mounts directly / needs an adapter plate (which dimensions differ) / cannot be settled from the data, then the electrical and communication findings.',
      'A dimension the data does not declare is unknown, never compatible.',
    ].join('\n');
  },
});
