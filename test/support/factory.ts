/** Synthetic catalogue records for tests (written here; no upstream text). */
import { StoredEntity } from '../../src/domain/catalogue/entity.js';
import type { CatalogueData } from '../../src/store/catalogue-data.js';

export function makeEntity(p: Partial<StoredEntity> & { id: string }): StoredEntity {
  const base: StoredEntity = {
    id: p.id,
    name: p.name ?? `Part ${p.id}`,
    name_en: p.name_en ?? p.name ?? `Part ${p.id}`,
    category: 'actuators',
    entity_kind: 'component',
    manufacturer: null,
    type: null,
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
    declared: {},
    description: '',
    quarantine: false,
    quarantine_reason: null,
    duplicate_of: null,
    deep: { price: null, compatibility: [], confidence: null, sources: [], compliance: {}, localization_ratio: null },
  };
  return StoredEntity.parse({ ...base, ...p, deep: { ...base.deep, ...(p.deep ?? {}) } });
}

export const TEST_CATEGORIES = [
  { slug: 'actuators', name: 'Actuators', spec_name: 'actuators' },
  { slug: 'sensors', name: 'Sensors', spec_name: 'sensors' },
  { slug: 'chips', name: 'AI chips', spec_name: 'chips' },
  { slug: 'protocols', name: 'Protocols', spec_name: 'protocols' },
  { slug: 'robot_ai_models', name: 'Robot foundation models', spec_name: 'robot foundation models' },
];

export function catalogueData(entities: StoredEntity[], categories = TEST_CATEGORIES): CatalogueData {
  return {
    meta: {
      dataset_version: 'test-1',
      license: 'CC BY 4.0',
      attribution: 'Data: RoboParts (https://roboparts.cc), CC BY 4.0',
      source: 'test fixture',
      snapshot_commit: null,
      imported_at: null,
    },
    categories,
    entities,
  };
}

/** A small catalogue exercising the search and lookup rules. */
export function sampleEntities(): StoredEntity[] {
  return [
    makeEntity({ id: 'ACT-001', name: 'Alpha Servo XM1', manufacturer: 'Acme Robotics', type: 'smart_servo', protocol: 'CAN bus', interface: 'CAN', applications: ['humanoid'], description: 'Smart servo by Acme Robotics', deep: { price: '120 USD', compatibility: ['ROS2'], confidence: 0.5, sources: [], compliance: {}, localization_ratio: null } }),
    makeEntity({ id: 'ACT-002', name: 'Beta Joint', manufacturer: 'Servo Works', type: 'joint_motor', protocol: 'EtherCAT', interface: 'EtherCAT', applications: ['quadruped'], description: 'Joint motor' }),
    makeEntity({ id: 'ACT-003', name: 'Gamma Drive', manufacturer: 'Gamma', type: 'harmonic_joint', applications: ['servo_arm'], description: 'Harmonic joint' }),
    makeEntity({ id: 'ACT-004', name: 'Delta Unit', manufacturer: 'Delta', type: 'linear', description: 'Linear unit used as a servo replacement' }),
    makeEntity({ id: 'ACT-010', name: 'Quarantined Servo', manufacturer: 'Unknown Co', type: 'smart_servo', quarantine: true, quarantine_reason: 'placeholder_id', duplicate_of: 'ACT-001' }),
    makeEntity({ id: 'SERVO-1', category: 'sensors', name: 'Encoder One', manufacturer: 'Enc', type: 'encoder' }),
    makeEntity({ id: 'SENS-001', category: 'sensors', name: 'Depth Cam', manufacturer: 'Intel', type: 'depth_camera', interfaces: ['USB3'] }),
    makeEntity({ id: 'PROT-001', category: 'protocols', entity_kind: 'protocol', name: 'EtherCAT', type: 'bus' }),
    makeEntity({ id: 'CHIP-001', category: 'chips', name: 'Orin Module', manufacturer: 'NVIDIA', type: 'sbc', deep: { price: null, compatibility: ['secretcompat'], confidence: 0.9, sources: [], compliance: {}, localization_ratio: null } }),
  ];
}
