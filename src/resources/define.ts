/**
 * A published dataset: one definition serves both the MCP resource (robotparts://datasets/...)
 * and its REST path, so the two cannot drift.
 */
import type { Deps } from '../deps.js';

export interface DatasetDefinition {
  /** Resource name, e.g. "parameter-semantics". URI: robotparts://datasets/<name>. */
  name: string;
  title: string;
  description: string;
  /** REST path serving the same document, e.g. /api/parameter_semantics.json; null when a tool's REST route serves it (the tool takes arguments). */
  restPath: string | null;
  /** Builds the document from the deps (computed, never typed in). */
  build: (deps: Deps) => Promise<Record<string, unknown>>;
  /** What the MCP resource serves when it differs from the REST document (an index of a document too large for one read). */
  resourceBuild?: (deps: Deps) => Promise<Record<string, unknown>>;
}

export function defineDataset(d: DatasetDefinition): DatasetDefinition {
  return d;
}

export const datasetUri = (name: string) => `robotparts://datasets/${name}`;
