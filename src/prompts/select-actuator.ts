import { categoriesMatching } from '../resources/serve.js';
import { definePrompt } from './define.js';

export const selectActuatorPrompt = definePrompt({
  name: 'select_actuator',
  title: 'Select an actuator',
  description: 'From requirements (torque, speed, bus, voltage, mounting) to the search, screening and comparison calls that pick candidate actuators from the catalogue.',
  arguments: [
    { name: 'requirements', description: 'What the actuator must do, e.g. "knee joint, >= 40 Nm rated, EtherCAT, 48 V bus"', required: true },
    {
      name: 'category',
      description: 'Catalogue category to search (default "actuators")',
      required: false,
      complete: (deps, value) => categoriesMatching(deps, value),
    },
    { name: 'candidates', description: 'How many candidates to examine in depth (default 5)', required: false },
  ],
  render: (args) => {
    const category = args.category?.trim() || 'actuators';
    const n = Number.parseInt(args.candidates ?? '', 10);
    const candidates = Number.isInteger(n) && n > 0 && n <= 50 ? n : 5;
    return [
      `Select a robot actuator for these requirements: ${args.requirements.trim()}`,
      '',
      'Use the robot-parts tools in this order:',
      `1. search_parts(q, category: "${category}") with two or three key terms from the requirements (actuator type, bus, vendor); follow next_cursor for more pages. list_parts(category: "${category}") lists the whole category in id order.`,
      `2. get_part(id) for the ${candidates} most promising hits: read the vendor-declared values (rated/peak torque, speed, voltage, bus, flange).`,
      '3. convert_parameter(value, to) to read each torque or speed notation exactly (e.g. "15 kgf·cm" to N·m, "0.11 sec/60°" to rpm); convert_parameter(value, compare_with) says whether two notations are comparable at all.',
      '4. screen_part(id) on every candidate: the red lines RL-01..RL-06 flag torque density, peak-to-rated ratio, backlash, repeatability vs accuracy, IP rating scope and encoder claims.',
      '5. When the actuator must mount on or talk to a given part, check_compatibility(a, b) with both ids (mechanical flange, electrical, communication, software).',
      '',
      'Answer with a table of the candidates: id, name, the declared values that matter for the requirements, red-line marks, and the open questions.',
      'Values are vendor-declared and never measured by the service: quote them as declared, say "unknown" where the data is silent, and never estimate a missing value.',
    ].join('\n');
  },
});
