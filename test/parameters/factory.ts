/** Synthetic catalogue records for the parameter tests, built on the shared factory (every one passes StoredEntity.parse). */
import type { DeclaredParams, StoredEntity } from '../../src/domain/catalogue/entity.js';
import { makeEntity as baseEntity } from '../support/factory.js';

let seq = 0;

export function makeEntity(declared: DeclaredParams = {}, over: Partial<Omit<StoredEntity, 'declared'>> = {}): StoredEntity {
  seq += 1;
  const id = over.id ?? `TEST-${String(seq).padStart(3, '0')}`;
  return baseEntity({
    name: `Test part ${id}`,
    manufacturer: 'Test Vendor',
    type: 'joint_motor',
    description: 'A synthetic test record.',
    ...over,
    id,
    declared,
  });
}
