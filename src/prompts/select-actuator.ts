import { categoriesMatching } from '../resources/serve.js';
import { definePrompt } from './define.js';

export const selectActuatorPrompt = definePrompt({
  name: 'select_actuator',
  title: 'Select an actuator',
  description: 'From requirements (torque, speed, bus, voltage, mounting) to the fewest calls that pick candidate actuators: spec filters, screening, comparison and alternatives.',
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
      'Use the robot-parts tools in this order (each step is one call unless it says otherwise):',
      `1. list_spec_fields(category: "${category}"): the fields you can filter and sort on (torque_rated, torque_peak, speed, voltage, bus, mass, ...), their units, ops, value counts and ranges. Skip it when you already know the field names.`,
      `2. search_parts(where, category: "${category}", sort, limit): turn every numeric or bus requirement into one where clause and let the server filter, e.g. where: "torque_rated>=40 N·m; voltage covers 48 V; bus in EtherCAT|CAN", sort: "-torque_rated". Values may be in any unit the parser reads (kgf·cm, rpm, g, arcmin). Read meta.filters: unknown_excluded counts records that do not declare the field (they never match), near misses list values declared but not read. Add q only for words that are not specs (a vendor, a type).`,
      `3. compare_parts(ids) with the ${candidates} best hits: one row per field, ranked only where the values are comparable (peak is never ranked against rated).`,
      '4. screen_part(id) on each finalist: the red lines RL-01..RL-06 flag torque density, peak-to-rated ratio, backlash, repeatability vs accuracy, IP rating scope and encoder claims.',
      '5. find_alternatives(id, must) for the favourite when you need second sources: same function from other products, with the reasons; newer versions are shown, never hidden.',
      '6. Only when the actuator must mount on or talk to a given part: check_compatibility(a, b) (mechanical flange ruling, electrical, communication, software in one call).',
      'convert_parameter(value, to) reads one notation exactly when a declared value needs converting by hand; get_part(id) shows a part\'s every free field with evidence.',
      '',
      'Answer with a table of the candidates: id, name, the declared values that matter for the requirements, red-line marks, and the open questions.',
      'Values are vendor-declared and never measured by the service: quote them as declared, say "unknown" where the data is silent, and never estimate a missing value.',
    ].join('\n');
  },
});
