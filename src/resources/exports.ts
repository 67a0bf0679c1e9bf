/**
 * Documents too large to return inline over MCP (export_bom CSV beyond the inline limit), kept
 * in process memory and served as resources robotparts://exports/<uuid> until they expire.
 * One store per deps (one per process in production). The link resolves on the instance that
 * made it: behind a load balancer without affinity, read it soon or use REST /api/bom/export.
 */
import { randomUUID } from 'node:crypto';
import type { Deps } from '../deps.js';

export const EXPORT_URI_PREFIX = 'robotparts://exports/';
export const EXPORT_TTL_MS = 60 * 60 * 1000;
export const EXPORT_MAX_DOCUMENTS = 200;

export interface ExportDocument {
  name: string;
  mimeType: string;
  text: string;
}

interface Entry extends ExportDocument {
  expires: number;
}

class ExportStore {
  private readonly docs = new Map<string, Entry>();
  constructor(private readonly now: () => number) {}

  put(doc: ExportDocument): string {
    this.sweep();
    while (this.docs.size >= EXPORT_MAX_DOCUMENTS) this.docs.delete(this.docs.keys().next().value as string);
    const uri = `${EXPORT_URI_PREFIX}${randomUUID()}`;
    this.docs.set(uri, { ...doc, expires: this.now() + EXPORT_TTL_MS });
    return uri;
  }

  get(uri: string): ExportDocument | null {
    this.sweep();
    const d = this.docs.get(uri);
    return d ? { name: d.name, mimeType: d.mimeType, text: d.text } : null;
  }

  private sweep(): void {
    const t = this.now();
    for (const [k, v] of this.docs) if (v.expires <= t) this.docs.delete(k);
  }
}

const stores = new WeakMap<Deps, ExportStore>();
export function exportStore(deps: Deps): ExportStore {
  let s = stores.get(deps);
  if (!s) {
    s = new ExportStore(() => deps.clock().getTime());
    stores.set(deps, s);
  }
  return s;
}
