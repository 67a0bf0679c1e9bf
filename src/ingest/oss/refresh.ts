/**
 * `robot-parts-mcp sources refresh` (issue 45): every source of a sources file is fetched, its
 * files run through the extractors (the same extractSource that builds the shipped layer) and
 * written into the database in one transaction per source. A source that fails keeps its earlier
 * records; records no longer produced stay, marked gone. `liveDocument` turns what the database
 * holds into the layer document every reader of the layer uses.
 */
import { mergeSourceRecords, type LiveRow } from '../../domain/oss/live.js';
import type { LiveLayerSnapshot, OssLiveStore } from '../../store/oss-live-store.js';
import type { SourceFetcher } from './fetch.js';
import { extractSource, layerDocument, OssDocument, type ExtractedSource, type OssSource } from './layer.js';
import { OssRecord } from './records.js';
import type { SourcesFile, SourceSpec } from './sources-file.js';
import { EXTRACTOR_KINDS } from './types.js';

export interface RefreshOptions {
  /** The time stamped on this refresh (ISO 8601 UTC); default now. */
  now?: () => string;
  /** How a fetched source is extracted (default: extractSource on this thread; the CLI runs it in a worker). */
  extract?: (source: SourceSpec, fetched: Awaited<ReturnType<SourceFetcher>>, seenAt: string) => Promise<ExtractedSource>;
  /** One line per source, for the operator. */
  report?: (line: string) => void;
}

export interface RefreshSummary {
  run: number;
  sources_ok: number;
  sources_attempted: number;
  failed: { id: string; reason: string }[];
  per_source: { id: string; commit: string | null; records: number; added: number; changed: number; gone: number; back: number }[];
}

const stripTimes = (r: OssRecord): Omit<OssRecord, 'first_seen' | 'last_seen'> => {
  const { first_seen: _f, last_seen: _l, ...rest } = r;
  return rest;
};

/** Refreshes every source of the file into the store; sources the file no longer names have their records marked gone. */
export async function refreshSources(file: SourcesFile, store: OssLiveStore, fetcher: SourceFetcher, opts: RefreshOptions = {}): Promise<RefreshSummary> {
  const now = opts.now ?? (() => new Date().toISOString());
  const started = now();
  const extract = opts.extract ?? (async (s, f, at) => extractSource(s, f, at));
  const failed: RefreshSummary['failed'] = [];
  const per: RefreshSummary['per_source'] = [];
  let ok = 0;
  for (const [position, s] of file.sources.entries()) {
    const at = now();
    try {
      const fetched = await fetcher(s);
      const extracted = await extract(s, fetched, at);
      const previous = await store.sourceRows(s.id);
      const merge = mergeSourceRecords(
        previous,
        extracted.records.map((r) => ({ id: r.id, record: stripTimes(r) as unknown })),
        at,
        (a, b) => JSON.stringify(a) === JSON.stringify(b),
      );
      const files = extracted.files.map((f): OssSource => ({ ...f, read_at: at }));
      await store.saveSource({ id: s.id, position, listed: true, files, commit: fetched.commit, read_at: at, attempted_at: at, error: null }, merge.rows);
      ok++;
      per.push({ id: s.id, commit: fetched.commit, records: extracted.records.length, added: merge.added, changed: merge.changed, gone: merge.gone, back: merge.back });
      for (const note of extracted.notes ?? []) opts.report?.(`${s.id}: ${note}`);
      opts.report?.(`${s.id}: ${extracted.records.length} records at ${fetched.commit.slice(0, 12)} (${merge.added} new, ${merge.changed} changed, ${merge.gone} gone, ${merge.back} back)`);
    } catch (e) {
      const reason = (e instanceof Error ? e.message : String(e)).slice(0, 1000);
      failed.push({ id: s.id, reason });
      await store.recordFailure(s.id, position, at, reason);
      opts.report?.(`${s.id}: FAILED (earlier records kept): ${reason}`);
    }
  }
  // Sources taken out of the file: their records are gone from now on (kept, marked).
  const listed = new Set(file.sources.map((s) => s.id));
  for (const st of await store.sources()) {
    if (listed.has(st.id) || !st.listed) continue;
    const at = now();
    const merge = mergeSourceRecords(await store.sourceRows(st.id), [], at, () => true);
    await store.saveSource({ ...st, listed: false, position: file.sources.length + st.position, attempted_at: at }, merge.rows);
    opts.report?.(`${st.id}: no longer in the sources file; ${merge.gone} record(s) marked gone`);
  }
  const run = await store.saveRun({ started_at: started, finished_at: now(), sources_ok: ok, sources_attempted: file.sources.length, failed });
  return { run, sources_ok: ok, sources_attempted: file.sources.length, failed, per_source: per };
}

/** At most this many gone records are listed in meta.gone (all are counted in gone_entities). */
export const GONE_LISTED = 200;

/**
 * The layer document of what the database holds: the files and current records of every listed
 * source that has been read once (a failing source keeps its last good read), gone records
 * counted and listed apart, live_stats of the latest run.
 */
export function liveDocument(snap: LiveLayerSnapshot): OssDocument {
  const rowsBySource = new Map<string, (LiveRow<unknown> & { source_id: string })[]>();
  for (const r of snap.rows) {
    const list = rowsBySource.get(r.source_id) ?? [];
    list.push(r);
    rowsBySource.set(r.source_id, list);
  }
  const extracted: ExtractedSource[] = [];
  const gone: NonNullable<OssDocument['meta']['gone']> = [];
  for (const s of snap.sources) {
    const rows = rowsBySource.get(s.id) ?? [];
    for (const r of rows) {
      if (r.gone) gone.push({ id: r.id, name: String((r.record as { name?: unknown }).name ?? r.id), source_id: String((r.record as { source_id?: unknown }).source_id ?? s.id), last_seen: r.last_seen, gone_since: r.gone_since ?? r.last_seen });
    }
    if (!s.listed || s.files === null) continue;
    const records = rows.filter((r) => !r.gone).map((r) => ({ ...(r.record as object), first_seen: r.first_seen, last_seen: r.last_seen }) as OssRecord);
    extracted.push({ id: s.id, files: s.files as OssSource[], records });
  }
  const doc = layerDocument(extracted, snap.run.sources_attempted, snap.run.failed);
  doc.meta.live_stats.sources_ok = snap.run.sources_ok;
  doc.meta.live_stats.by_extractor = Object.fromEntries(EXTRACTOR_KINDS.map((k) => [k, doc.data.filter((r) => r.extractor === k).length]));
  doc.meta.generated_at = snap.run.finished_at;
  doc.meta.last_updated = doc.data.reduce((m, r) => (r.last_seen > m ? r.last_seen : m), doc.data.length ? '' : snap.run.finished_at);
  doc.meta.gone_entities = gone.length;
  gone.sort((a, b) => (a.gone_since < b.gone_since ? 1 : a.gone_since > b.gone_since ? -1 : a.id < b.id ? -1 : 1));
  doc.meta.gone = gone.slice(0, GONE_LISTED);
  return OssDocument.parse(doc);
}
