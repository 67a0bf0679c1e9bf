/** Synthetic catalogue records for the parameter tests; every one passes StoredEntity.parse. */
import { StoredEntity, type DeclaredParams } from '../../src/domain/entity.js';

let seq = 0;

export function makeEntity(
  declared: DeclaredParams = {},
  over: Partial<Omit<StoredEntity, 'declared'>> = {},
): StoredEntity {
  seq += 1;
  const id = over.id ?? `TEST-${String(seq).padStart(3, '0')}`;
  const record: StoredEntity = {
    id,
    name: `Test part ${id}`,
    name_en: `Test part ${id}`,
    category: 'actuators',
    entity_kind: 'component',
    manufacturer: 'Test Vendor',
    type: 'joint_motor',
    protocol: 'N/A',
    interface: 'N/A',
    interfaces: [],
    voltage: 'N/A',
    weight: 'N/A',
    torque: '',
    ros_support: null,
    applications: [],
    price_range: null,
    standard: null,
    status: null,
    year: null,
    source_urls: [],
    source_tier: 'B',
    source_robot: null,
    source_license: null,
    oss: false,
    mechanical_interface: { status: 'not_declared', mount_type: null, flange: null },
    declared,
    description: 'A synthetic test record.',
    quarantine: false,
    quarantine_reason: null,
    duplicate_of: null,
    deep: {
      price: null,
      compatibility: [],
      confidence: null,
      sources: [],
      compliance: {},
      localization_ratio: null,
    },
    ...over,
  };
  return StoredEntity.parse(record);
}
