/**
 * Category slugs as data. The slugs are the snapshot's own (users and links already use them);
 * each gets an English display name, and the eleven categories of the specification's catalogue
 * summary carry the name that table uses (`spec_name`). Categories the summary does not list
 * (reducers, grippers, controllers, ...) have `spec_name: null`.
 */

export interface CategoryDef {
  slug: string;
  name: string;
  spec_name: string | null;
}

/** Display names and spec names, keyed by snapshot slug. */
export const CATEGORY_DEFS: Readonly<Record<string, { name: string; spec_name: string | null }>> = {
  actuators: { name: 'Actuators', spec_name: 'actuators' },
  sensors: { name: 'Sensors', spec_name: 'sensors' },
  chips: { name: 'Chips', spec_name: 'chips' },
  interfaces: { name: 'Interfaces', spec_name: 'interfaces' },
  protocols: { name: 'Protocols', spec_name: 'protocols' },
  llms: { name: 'General foundation models', spec_name: 'general foundation models' },
  platforms: { name: 'Whole-machine platforms', spec_name: 'whole-machine platforms' },
  flexible_actuators: { name: 'Flexible actuators', spec_name: 'flexible actuators' },
  robot_ai_models: { name: 'Robot foundation models', spec_name: 'robot foundation models' },
  data_acquisition: { name: 'Data-acquisition devices', spec_name: 'data-acquisition devices' },
  connectors: { name: 'Connectors', spec_name: 'connectors' },
  integrated_joints: { name: 'Integrated joints', spec_name: null },
  reducers: { name: 'Reducers', spec_name: null },
  controllers: { name: 'Controllers', spec_name: null },
  grippers: { name: 'Grippers', spec_name: null },
  structural: { name: 'Structural parts', spec_name: null },
  cables: { name: 'Cables', spec_name: null },
  power: { name: 'Power supplies and batteries', spec_name: null },
  pcb: { name: 'Printed circuit boards', spec_name: null },
  bionic_mechanisms: { name: 'Bionic mechanisms', spec_name: null },
};

/** The eleven category names of the specification's catalogue summary. */
export const SPEC_SUMMARY_CATEGORIES = [
  'actuators',
  'chips',
  'sensors',
  'protocols',
  'robot foundation models',
  'data-acquisition devices',
  'general foundation models',
  'whole-machine platforms',
  'interfaces',
  'flexible actuators',
  'connectors',
] as const;

/**
 * The category list for the given slugs, in the given order (the snapshot's meta.categories
 * order, followed by any slug only seen on records, sorted). Throws on a slug with no display
 * name: a new upstream category must be named here, never guessed.
 */
export function buildCategories(slugs: readonly string[]): CategoryDef[] {
  return slugs.map((slug) => {
    const def = CATEGORY_DEFS[slug];
    if (!def) throw new Error(`category "${slug}" has no display name in src/ingest/catalogue/categories.ts`);
    return { slug, name: def.name, spec_name: def.spec_name };
  });
}
