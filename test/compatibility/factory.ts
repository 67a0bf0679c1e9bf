/** Builds StoredEntity fixtures (validated by StoredEntity.parse) for the compatibility tests. */
import type { DeclaredParams, StoredEntity } from '../../src/domain/catalogue/entity.js';
import { makeEntity as baseEntity } from '../support/factory.js';
import { specShapedFields } from '../../src/domain/parameters/index.js';

export interface EntityInput {
  id: string;
  name?: string;
  category?: string;
  entity_kind?: string;
  manufacturer?: string | null;
  type?: string | null;
  protocol?: string;
  interface?: string;
  interfaces?: string[];
  /** Declared voltage, verbatim; the spec-shaped `voltage` is derived from it by the parameter module. */
  declaredVoltage?: string;
  ros_support?: boolean | null;
  flange?: string | null;
  mountStatus?: 'declared' | 'partial' | 'not_declared' | 'n_a';
  quarantine?: boolean;
  deepCompatibility?: string[];
}

export function makeEntity(i: EntityInput): StoredEntity {
  const declared: DeclaredParams = {};
  if (i.declaredVoltage !== undefined) declared.voltage = i.declaredVoltage;
  return baseEntity({
    id: i.id,
    name: i.name ?? i.id,
    category: i.category ?? 'actuators',
    entity_kind: i.entity_kind ?? 'component',
    manufacturer: i.manufacturer ?? null,
    type: i.type ?? null,
    protocol: i.protocol ?? 'N/A',
    interface: i.interface ?? 'N/A',
    interfaces: i.interfaces ?? [],
    voltage: specShapedFields({ voltage: i.declaredVoltage }).voltage,
    ros_support: i.ros_support ?? null,
    source_tier: 'C',
    mechanical_interface: {
      status: i.mountStatus ?? (i.flange ? 'declared' : 'not_declared'),
      mount_type: i.flange ? 'flange' : null,
      flange: i.flange ?? null,
    },
    declared,
    description: `${i.id} (test fixture)`,
    quarantine: i.quarantine ?? false,
    quarantine_reason: i.quarantine ? 'test' : null,
    deep: { price: null, compatibility: i.deepCompatibility ?? [], confidence: null, sources: [], compliance: {}, localization_ratio: null },
  });
}
