/**
 * An adapter plate's files for the REST route and the MCP resources: text formats (JSON, OpenSCAD)
 * here, mesh formats (STL, 3MF: the CSG kernel's work) in the worker pool under the caller's fair
 * share (issue 39 N6). Mesh files are kept in the answer cache keyed on the full design (every
 * feature and the thickness), so a repeated design is built once and a new one costs a pool job,
 * never the main thread.
 */
import { createHash } from 'node:crypto';
import type { PlateAnswer, PlateFormat } from '../domain/plates/index.js';
import { plateFile, type PlateFileBody } from '../geometry/plate-files.js';
import type { Deps } from '../deps.js';

/** The cache key of a plate's mesh file: the format and a digest of the whole design. */
export function plateFileKey(answer: PlateAnswer, format: PlateFormat): string {
  return `plate-file\u0000${format}\u0000${createHash('sha256').update(JSON.stringify(answer.design)).digest('hex')}`;
}

/** The file of one format for an answer with a design (null when no plate is needed). */
export async function plateFileFor(answer: PlateAnswer, format: PlateFormat, deps: Pick<Deps, 'answers' | 'jobs'>, caller: { client: string | null; signal?: AbortSignal }): Promise<PlateFileBody | null> {
  if (!answer.design) return null;
  if (format === 'json' || format === 'scad') return plateFile(answer, format);
  const { answers } = deps;
  const key = plateFileKey(answer, format);
  const hit = answers.get(key) as PlateFileBody | undefined;
  if (hit) return hit;
  const file = (await deps.jobs.run('plate_file', { answer, format }, { label: 'design_adapter_plate', ...caller })) as PlateFileBody | null;
  if (file && answers.wants(key)) answers.set(key, file as unknown as Record<string, unknown>);
  return file;
}
