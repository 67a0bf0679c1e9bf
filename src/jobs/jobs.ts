/**
 * What a job does, by name: the same tool handlers and domain functions the main thread would call
 * (never a second implementation). A pool worker (src/jobs/worker.ts) runs these; so does the
 * main thread when the pool is off (ROBOT_PARTS_POOL_SIZE=0).
 */
import type { Config } from '../config.js';
import { bomCheckEngines, buildBomExport, checkBom, recordLookup, renderBomCsv, toCheckParts } from '../domain/bom/index.js';
import { sizingTorques } from '../ingest/oss/sizing-model.js';
import { readArchive } from '../ingest/oss/archive.js';
import { invalidInput } from '../domain/shared/errors.js';
import type { Knowledge } from '../store/datasets.js';
import type { JobKind, JobPayloads, ToolJobPayload } from './types.js';

type Progress = (progress: number, total?: number, message?: string) => void;

/** Runs an offloaded tool by name: given by whoever holds the tool registry (the worker's entry, or the composition root for pool size 0). */
export type ToolJob = (job: ToolJobPayload, progress: Progress) => Promise<unknown>;

/** What a job may read besides its payload. */
export interface JobEnv {
  config: Config;
  /** The engines' registries (read on first use in a worker). */
  knowledge(): Knowledge;
  /** The 'tool' job: the pool knows no tool. */
  runTool: ToolJob;
}

export async function runJob<K extends JobKind>(kind: K, payload: JobPayloads[K], env: JobEnv, progress: Progress): Promise<unknown> {
  switch (kind) {
    case 'tool': {
      return env.runTool(payload as JobPayloads['tool'], progress);
    }
    case 'check_bom': {
      const { items, records, baseUrl } = payload as JobPayloads['check_bom'];
      return checkBom(toCheckParts(items, recordLookup(records)), bomCheckEngines({ ...env.knowledge(), baseUrl }));
    }
    case 'export_bom': {
      const { req, records, now, references } = payload as JobPayloads['export_bom'];
      const k = env.knowledge();
      const doc = buildBomExport(req, {
        lookup: recordLookup(records),
        suppliers: k.suppliers,
        printRules: k.printRules,
        flanges: k.flanges,
        now: new Date(now),
        references: new Map(references ?? []),
        onProgress: (done, total) => progress(done, total, `BOM lines ${done}/${total}`),
        check: (items, lookup) => checkBom(toCheckParts(items, lookup), bomCheckEngines(k)),
      });
      return { ...doc, format: req.format, csv: req.format === 'csv' ? renderBomCsv(doc, req.include_suppliers) : null, document_uri: null };
    }
    case 'size_torques': {
      const { input, archive } = payload as JobPayloads['size_torques'];
      if (!archive) return sizingTorques(input);
      // A REST package upload, unpacked here (the worker pool) with the upload routes' reader and limits.
      const { files } = readArchive(archive, 'body');
      if (files.length === 0) throw invalidInput('body', 'the archive holds no description file (.xacro, .urdf, .xml, .yaml)');
      return sizingTorques({ ...input, files });
    }
    case 'plate_file': {
      const { answer, format } = payload as JobPayloads['plate_file'];
      // The geometry (manifold-3d, fflate) is loaded on the first plate a worker builds.
      const { plateFile } = await import('../geometry/plate-files.js');
      return plateFile(answer, format);
    }
    case 'extract_source': {
      const { source, fetched, seenAt } = payload as JobPayloads['extract_source'];
      const { extractSource } = await import('../ingest/oss/layer.js');
      return extractSource(source, fetched, seenAt);
    }
    default:
      throw new Error(`unknown job kind ${String(kind)}`);
  }
}
