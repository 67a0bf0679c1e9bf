/**
 * Open-source-layer records: the catalogue entity's free fields (FreeEntity, as get_part
 * returns them) plus the spec's live-record fields and the extraction the record came from.
 * `ossToStored()` gives a valid StoredEntity (extras dropped, an empty `deep`), so a record can
 * be loaded where catalogue entities are, e.g. by the compatibility and BOM-check functions.
 */
import { createHash } from 'node:crypto';
import { z } from 'zod';
import { FreeEntity, type StoredEntity } from '../../domain/catalogue/entity.js';
import { Confidence, EXTRACTOR_KINDS, ExtractedRecord, type BomItemRecord, type JointRecord } from './types.js';

export const OSS_LIVE_ID = /^OSS-LIVE-[0-9A-F]{10}$/;

export const OssRecord = FreeEntity.extend({
  ros_ecosystem_origin: z.boolean().describe('true when the record comes from a ROS-ecosystem description (URDF)'),
  joint_name: z.string().optional(),
  joint_type: z.string().optional(),
  confidence: Confidence,
  extractor: z.enum(EXTRACTOR_KINDS),
  source_id: z.string().describe('Id of the source file in meta.sources'),
  source_url: z.string().describe('The source file at the pinned commit'),
  source_repo: z.string(),
  live: z.literal(true),
  first_seen: z.string().describe('ISO 8601 UTC: first import that produced this record'),
  last_seen: z.string().describe('ISO 8601 UTC: latest import that produced this record'),
  extracted: ExtractedRecord.describe('The extractor output this record was built from, values as written'),
}).strict();
export type OssRecord = z.infer<typeof OssRecord>;

/** What a record needs to know about its source file. */
export interface RecordSource {
  id: string;
  name: string;
  robot: string;
  type: string | null;
  license: string;
  repo_url: string;
  file_url: string;
}

/** OSS-LIVE-<10 uppercase hex>: sha256 of the source id and the record's locator in the file. */
export function ossLiveId(sourceId: string, locator: string): string {
  return `OSS-LIVE-${createHash('sha256').update(`${sourceId}\n${locator}`).digest('hex').slice(0, 10).toUpperCase()}`;
}

function locator(r: ExtractedRecord): string {
  return r.record_type === 'urdf_joint' ? `urdf_joint:${r.joint_name}` : `bom_item:${r.section ?? ''}:${r.part_number ?? ''}:${r.item}`;
}

function jointDescription(r: JointRecord, robotName: string, src: RecordSource): string {
  const parts = [`${r.joint_type[0].toUpperCase()}${r.joint_type.slice(1)} joint ${r.joint_name} of ${robotName} (URDF, ${src.name})`];
  if (r.parent_link || r.child_link) parts.push(`parent link ${r.parent_link ?? 'not given'}, child link ${r.child_link ?? 'not given'}`);
  const l = Object.entries(r.limits).map(([k, v]) => `${k} ${v}`);
  if (l.length) parts.push(`limits ${l.join(', ')}`);
  return `${parts.join('; ')}.`;
}

function bomDescription(r: BomItemRecord, src: RecordSource): string {
  const parts = [`BOM line of ${src.name}${r.section ? ` (${r.section.replace(/[:：]\s*$/, '')})` : ''}`];
  if (r.quantity !== null) parts.push(`quantity ${r.quantity}`);
  const prices = r.unit_prices.map((p) => (p.amount !== null && p.currency !== null ? `${p.amount} ${p.currency}` : p.as_written));
  if (prices.length) parts.push(`unit price ${prices.join(' / ')}`);
  return `${parts.join('; ')}.`;
}

/** Records of one source, in file order; timestamps filled by the caller. */
export function buildRecords(extracted: ExtractedRecord[], robotName: string | null, src: RecordSource, seenAt: string): OssRecord[] {
  const occurrences = new Map<string, number>();
  return extracted.map((r) => {
    const loc = locator(r);
    const k = occurrences.get(loc) ?? 0;
    occurrences.set(loc, k + 1);
    const id = ossLiveId(src.id, k === 0 ? loc : `${loc}#${k + 1}`);
    const common = {
      id,
      interfaces: [],
      protocol: 'N/A',
      interface: 'N/A',
      voltage: 'N/A',
      weight: 'N/A',
      torque: '',
      ros_support: null,
      applications: src.type ? [src.type] : [],
      price_range: null,
      status: null,
      year: null,
      source_urls: [src.file_url],
      source_tier: 'A' as const,
      source_robot: src.robot,
      source_license: src.license,
      oss: true,
      mechanical_interface: { status: 'not_declared' as const, mount_type: null, flange: null },
      declared: {},
      quarantine: false,
      quarantine_reason: null,
      duplicate_of: null,
    };
    const live = {
      confidence: r.confidence,
      extractor: r.extractor,
      source_id: src.id,
      source_url: src.file_url,
      source_repo: src.repo_url,
      live: true as const,
      first_seen: seenAt,
      last_seen: seenAt,
      extracted: r,
    };
    if (r.record_type === 'urdf_joint') {
      const robot = robotName ?? src.robot;
      const name = `${robot} ${r.joint_name}`;
      return {
        ...common,
        name,
        name_en: name,
        category: 'urdf_joints',
        entity_kind: 'robot_joint',
        manufacturer: null,
        type: `urdf_joint_${r.joint_type}`,
        standard: 'URDF',
        description: jointDescription(r, robot, src),
        ros_ecosystem_origin: true,
        joint_name: r.joint_name,
        joint_type: r.joint_type,
        ...live,
      };
    }
    return {
      ...common,
      name: r.item,
      name_en: r.item,
      category: 'bom_items',
      entity_kind: 'component',
      manufacturer: r.manufacturer,
      type: 'bom_item',
      standard: null,
      description: bomDescription(r, src),
      ros_ecosystem_origin: false,
      ...live,
    };
  });
}

const LIVE_KEYS = ['ros_ecosystem_origin', 'joint_name', 'joint_type', 'confidence', 'extractor', 'source_id', 'source_url', 'source_repo', 'live', 'first_seen', 'last_seen', 'extracted'] as const;

/** A catalogue StoredEntity from an OSS record: live and extraction fields dropped, `deep` empty (no paid values exist for these records). */
export function ossToStored(r: OssRecord): StoredEntity {
  const free: Record<string, unknown> = { ...r };
  for (const k of LIVE_KEYS) delete free[k];
  return {
    ...(free as Omit<StoredEntity, 'deep'>),
    deep: { price: null, compatibility: [], confidence: null, sources: [], compliance: {}, localization_ratio: null },
  };
}
