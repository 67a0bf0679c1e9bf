/**
 * Documents too large to return inline over MCP (export_bom CSV beyond the inline limit), kept
 * in process memory and served as resources robotparts://exports/<uuid> until they expire.
 * One store per deps (one per process in production). The link resolves on the instance that
 * made it: behind a load balancer without affinity, read it soon or use REST /api/bom/export.
 *
 * Ownership (issue 23, N5): a document belongs to its creator: the API key the export was made
 * with (kept as its SHA-256), or, for a caller without a key, its MCP session (stdio: the one
 * client of the process). A read by anyone else answers exactly as an unknown id does.
 * - A key-owned document is read by a request presenting that key (Authorization, X-API-Key,
 *   ?key=, ROBOT_PARTS_API_KEY on stdio) from any session, or by a request without a key on the
 *   session that made it (a client that passed the key as the tool's api_key argument).
 * - A session-owned document is read on that session only.
 *
 * Quotas, so that no caller can evict another's documents: each owner keeps at most
 * EXPORT_MAX_PER_OWNER documents and EXPORT_MAX_BYTES_PER_OWNER bytes (its own oldest go first);
 * the whole store holds at most EXPORT_MAX_DOCUMENTS documents and EXPORT_MAX_BYTES bytes. When it
 * is full, an owner holding nothing to give up is refused (rate_limited, retry_after = when the
 * oldest document expires) before its export runs (nothing is charged); nobody's document is
 * evicted for it.
 */
import { createHash, randomUUID } from 'node:crypto';
import type { Deps } from '../deps.js';
import { DomainError } from '../domain/shared/errors.js';

export const EXPORT_URI_PREFIX = 'robotparts://exports/';
export const EXPORT_TTL_MS = 60 * 60 * 1000;
/** The whole store (one process). */
export const EXPORT_MAX_DOCUMENTS = 500;
export const EXPORT_MAX_BYTES = 64 * 1024 * 1024;
/** One owner (an API key, or a session without one). */
export const EXPORT_MAX_PER_OWNER = 10;
export const EXPORT_MAX_BYTES_PER_OWNER = 8 * 1024 * 1024;

export interface ExportDocument {
  name: string;
  mimeType: string;
  text: string;
}

/** Who is asking: the SHA-256 of the API key presented (null without one) and the MCP session (null without one). */
export interface ExportCaller {
  keyDigest: string | null;
  session: string | null;
}

export function exportCaller(key: string | null, session: string | null): ExportCaller {
  return { keyDigest: key ? createHash('sha256').update(key, 'utf8').digest('hex') : null, session };
}

interface Entry extends ExportDocument {
  owner: string;
  keyDigest: string | null;
  session: string | null;
  bytes: number;
  expires: number;
}

/** The quota account of a caller: its key, else its session; null when it has neither (it cannot own a document). */
function ownerOf(c: ExportCaller): string | null {
  return c.keyDigest !== null ? `key:${c.keyDigest}` : c.session !== null ? `session:${c.session}` : null;
}

function mayRead(d: Entry, c: ExportCaller): boolean {
  if (d.keyDigest !== null) return c.keyDigest === d.keyDigest || (c.keyDigest === null && d.session !== null && c.session === d.session);
  return d.session !== null && c.session === d.session;
}

export class ExportStore {
  /** In insertion (= age) order. */
  private readonly docs = new Map<string, Entry>();
  private bytes = 0;

  constructor(
    private readonly now: () => number,
    private readonly limits = {
      documents: EXPORT_MAX_DOCUMENTS,
      bytes: EXPORT_MAX_BYTES,
      perOwner: EXPORT_MAX_PER_OWNER,
      bytesPerOwner: EXPORT_MAX_BYTES_PER_OWNER,
    },
  ) {}

  /**
   * Throws rate_limited when the store is full and this caller holds no document it could give
   * up for a new one (checked before the export runs, so nothing is charged); null owner: the
   * caller cannot own a document (then no link is made; see put).
   */
  admit(caller: ExportCaller): void {
    this.sweep();
    const owner = ownerOf(caller);
    if (owner === null) return;
    if (this.docs.size < this.limits.documents && this.bytes < this.limits.bytes) return;
    for (const d of this.docs.values()) if (d.owner === owner) return; // it makes room from its own
    const oldest = this.docs.values().next().value as Entry | undefined;
    const retryAfter = Math.max(1, Math.ceil(((oldest?.expires ?? this.now()) - this.now()) / 1000));
    throw new DomainError(
      'rate_limited',
      `This server holds as many export documents as it keeps (${this.limits.documents} documents or ${this.limits.bytes / 1048576} MB, each kept an hour); retry in ${retryAfter} s, or use REST POST /api/bom/export, which answers with the document itself.`,
      { retry_after: retryAfter, limit: 'export_documents' },
    );
  }

  /** Stores the document for its owner (evicting only that owner's oldest ones over its quota); null when the caller cannot own one. */
  put(doc: ExportDocument, caller: ExportCaller): string | null {
    this.sweep();
    const owner = ownerOf(caller);
    if (owner === null) return null;
    const bytes = Buffer.byteLength(doc.text);
    let count = 1;
    let held = bytes;
    const mine: string[] = [];
    for (const [uri, d] of this.docs) {
      if (d.owner !== owner) continue;
      mine.push(uri);
      count++;
      held += d.bytes;
    }
    for (const uri of mine) {
      if (count <= this.limits.perOwner && held <= this.limits.bytesPerOwner) break;
      held -= this.docs.get(uri)!.bytes;
      count--;
      this.remove(uri);
    }
    const uri = `${EXPORT_URI_PREFIX}${randomUUID()}`;
    this.docs.set(uri, { ...doc, owner, keyDigest: caller.keyDigest, session: caller.session, bytes, expires: this.now() + EXPORT_TTL_MS });
    this.bytes += bytes;
    return uri;
  }

  /** The document, when it exists and this caller may read it; null otherwise (the same for both). */
  get(uri: string, caller: ExportCaller): ExportDocument | null {
    this.sweep();
    const d = this.docs.get(uri);
    return d && mayRead(d, caller) ? { name: d.name, mimeType: d.mimeType, text: d.text } : null;
  }

  private remove(uri: string): void {
    const d = this.docs.get(uri);
    if (!d) return;
    this.bytes -= d.bytes;
    this.docs.delete(uri);
  }

  private sweep(): void {
    const t = this.now();
    for (const [k, v] of this.docs) {
      if (v.expires > t) break; // in age order: the rest are younger
      this.remove(k);
    }
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
