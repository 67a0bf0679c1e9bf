/**
 * The search index of a large catalogue, built on a worker thread while the main thread reads the
 * catalogue and builds everything else from it.
 *
 * Each record is handed over as it is read (validated and frozen, as the catalogue keeps it): its
 * searched texts (searchTexts) are batched and posted to the worker, which tokenises them while the
 * main thread goes on parsing. After the last record the worker numbers the documents in id order
 * and answers with the postings, their typed arrays transferred (no copy). The main thread adds
 * the documents' ids, quarantine flags and categories from its own sorted records and checks that
 * the worker numbered the documents as the catalogue sorts them: the index is the one
 * `new SearchIndex(records)` builds on the main thread (test/store/search-index-build.test.ts).
 *
 * The file's last fifth (TAIL_SHARE of its bytes) the worker reads itself (tail()): it parses,
 * validates and indexes those records while the main thread parses the rest, which it would
 * otherwise wait for with time to spare; the main thread takes their columns from its answer.
 *
 * Readiness: `ready` settles when the index is built, or rejects with the worker's error (or its
 * exit); servers await it (through Deps.ready) before they listen. `index()` asked before that
 * blocks until the worker answers (Atomics.wait), so no caller ever sees a missing index.
 */
import fs from 'node:fs';
import { MessageChannel, receiveMessageOnPort, type MessagePort, type ResourceLimits, type Worker } from 'node:worker_threads';
import type { StoredEntity } from '../domain/catalogue/entity.js';
import { SEARCH_FIELDS, SearchIndex, searchTexts, type SearchField, type SearchPostings, type WarmWords } from '../domain/catalogue/search.js';
import type { RecordColumns, SortedRecords } from './catalogue-records.js';
import { startWorkerModule } from '../worker-thread.js';

/** A catalogue file at least this large gets its index built on a worker (below, starting one costs more than it saves). */
export const INDEX_WORKER_MIN_BYTES = 8 * 1024 * 1024;

/**
 * Documents per batch posted to the worker: its texts (~40 KB here) stay a young string, collected
 * at once (a batch string over ~128 KB would be allocated in the old generation and stay until a full collection).
 */
const BATCH_DOCS = 256;

/** How long `index()` blocks for a worker that does not answer before giving up (it has died without a word). */
const SYNC_WAIT_MS = 300_000;

/**
 * At most about this many bytes of a catalogue file per (document, token) pair of its index: the
 * shipped catalogue has ~58 (1.2 MB, 20,542 pairs), the bench's 100,000 copies of it ~38 (101 MB,
 * 2,674,624 pairs: each copy's id adds a word). The worker's builders are made room for their
 * bytes over this (more than they need: room not written to costs no memory), so that their pairs
 * are not copied to ever larger arrays as they come.
 */
const BYTES_PER_PAIR = 32;

/** The least time the main thread waits for the worker's tail before reading it itself (IndexBuild.tail). */
const TAIL_WAIT_MIN_MS = 5_000;

/**
 * The share of a large catalogue file's bytes whose records the worker reads itself, from the end
 * (IndexBuild.tail): the worker has time to spare while the main thread parses (it tokenises faster
 * than the main thread parses), and each record it parses is one the main thread does not.
 */
export const TAIL_SHARE = 0.2;

/** What the worker is given (workerData). */
export interface IndexWorkerData {
  /** Where it answers (one message: IndexWorkerAnswer). */
  reply: MessagePort;
  /** Where it answers a tail's reading (TailAnswer). */
  tailReply: MessagePort;
  /** Int32 slot 0 set to 1 and notified once it has answered; slot 1 once it has answered a tail. */
  signal: SharedArrayBuffer;
  /** About how many (document, token) pairs the catalogue holds (PostingsBuilder's `pairs`). */
  pairs: number;
}

/**
 * The worker's reading of a tail: its records' columns and the document's members after the array
 * (null: the bytes from there are not the rest of such a document); or the first record it refused
 * (its index in the tail and its bytes: the main thread reads it again for the error); or a failure.
 */
export type TailAnswer =
  | { ok: true; columns: RecordColumns; members: Record<string, unknown> | null }
  | { ok: false; invalid: { index: number; start: number; end: number } }
  | { ok: false; message: string };

/** A tail of the catalogue file read on the worker while the main thread reads the rest (RecordSplit, json-records.ts). */
export interface TailRead {
  /** The byte from which its first record is looked for. */
  readonly from: number;
  /** Starts the worker reading from byte `at`: false when it cannot (the file is not the one open at the descriptor). */
  start(at: number): boolean;
  /** The worker's answer, waiting for it; null when it gave none in time (the main thread then reads the tail itself, after drop()). */
  result(): TailAnswer | null;
  /** The tail is read by the main thread after all: the worker forgets what it read. */
  drop(): void;
}

/** The arguments of SearchIndex.wordsByCount (tokenCounts' fields, countWords' numbers): the words a new instance warms up with. */
export interface WarmWordsAsk {
  n: number;
  narrowN: number;
  minDocs: number;
  fields: readonly SearchField[];
}

/**
 * `finish`: the documents' order (idOrder's positions over the records as added; null: added in id
 * order); `warm`: the words to count once the postings are made (countWords), with each document's
 * quarantine flag in that order, or null.
 */
export type IndexWorkerMessage =
  | { kind: 'batch'; texts: string; lengths: Int32Array }
  | { kind: 'tail'; fd: number; from: number; pairs: number }
  | { kind: 'tail-drop' }
  | { kind: 'finish'; positions: Int32Array | null; warm: (WarmWordsAsk & { quarantine: Uint8Array }) | null };

export type IndexWorkerAnswer = { ok: true; postings: SearchPostings; order: Int32Array | null; warm: WarmWords | null } | { ok: false; message: string };

/** Receives the catalogue's records as they are read (readCatalogueData). */
export interface RecordObserver {
  record(e: StoredEntity): void;
  /** The records are read again from the first (the file is parsed whole after all): forget those seen. */
  restart(): void;
  /** A tail of the file (`file`, open at `fd`, `size` bytes) that the observer reads itself, or null. */
  tail?(file: string, fd: number, size: number): TailRead | null;
}

export interface IndexBuildOptions {
  /** The worker's heap limits (tests). */
  resourceLimits?: ResourceLimits;
  /** The share of the file the worker reads itself (IndexBuild.tail): TAIL_SHARE for a file of INDEX_WORKER_MIN_BYTES or more by default; given (tests), for any file; 0: none. */
  tailShare?: number;
}

/** A file's size in bytes (0 when there is none). */
export const fileSize = (file: string): number => fs.statSync(file, { throwIfNoEntry: false })?.size ?? 0;

/**
 * The index of the catalogue's records in id order from postings built elsewhere (a worker's, a
 * prepared start's), documents numbered alike. `columns`: the records' columns when made already.
 */
export function indexOver(sorted: SortedRecords, postings: SearchPostings, columns: ReturnType<SortedRecords['columns']> = sorted.columns()): SearchIndex {
  return SearchIndex.fromParts({ ids: [...sorted.ids], ...columns, ...postings });
}

export class IndexBuild implements RecordObserver {
  /** Settles when the index is built; rejects with the worker's failure. Always handled (no unhandled rejection). */
  readonly ready: Promise<void>;
  private worker: Worker | null;
  private readonly reply: MessagePort;
  private readonly tailReply: MessagePort;
  private readonly state: Int32Array;
  private readonly tailShare: number | undefined;
  /** The descriptor the worker reads a tail from (its own, closed once it has answered or stopped). */
  private tailFd: number | null = null;
  /** The batch's texts, concatenated. */
  private texts = '';
  private lengths = new Int32Array(BATCH_DOCS * SEARCH_FIELDS.length);
  private inBatch = 0;
  /** The ids of the records added, in the order read. */
  private ids: string[] = [];
  /** The catalogue's records in id order (complete()). */
  private sorted: SortedRecords | null = null;
  /** The records given to end() and their columns, made there: while the worker numbers its postings. */
  private ended: { records: SortedRecords; columns: ReturnType<SortedRecords['columns']> } | null = null;
  /** The warm-up's words the worker counted (end()'s `warm`), once built. */
  private warm: WarmWords | null = null;
  /** The worker's answer, kept until the sorted records are known. */
  private answer: IndexWorkerAnswer | null = null;
  private built: SearchIndex | null = null;
  private failure: Error | null = null;
  /** Abandoned (the records are read again, or the start failed): the worker is stopped; complete() builds the index on the main thread. */
  private abandoned = false;
  private settle!: (err: Error | null) => void;

  /**
   * An index build on a worker when the catalogue file at `entitiesFile` is large enough, else
   * null; `choice`: always (true, or the worker's options) or never (false).
   */
  static forFile(entitiesFile: string, choice?: boolean | IndexBuildOptions): IndexBuild | null {
    const bytes = fileSize(entitiesFile);
    return IndexBuild.wanted(bytes, choice) ? new IndexBuild(typeof choice === 'object' ? choice : {}, bytes) : null;
  }

  /** Whether forFile builds on a worker for a catalogue file of `bytes` (and so the catalogue is read lazily). */
  static wanted(bytes: number, choice?: boolean | IndexBuildOptions): boolean {
    return choice !== false && (choice !== undefined || bytes >= INDEX_WORKER_MIN_BYTES);
  }

  private constructor(opts: IndexBuildOptions, bytes: number) {
    const { port1, port2 } = new MessageChannel();
    const tail = new MessageChannel();
    const signal = new SharedArrayBuffer(8);
    this.reply = port1;
    this.tailReply = tail.port1;
    this.state = new Int32Array(signal);
    this.tailShare = opts.tailShare;
    const data: IndexWorkerData = { reply: port2, tailReply: tail.port2, signal, pairs: Math.ceil(bytes / BYTES_PER_PAIR) };
    // Stopped (terminated) as soon as it has answered, failed or been abandoned.
    this.worker = startWorkerModule(import.meta.url, 'search-index-worker', { workerData: data, transferList: [port2, tail.port2], resourceLimits: opts.resourceLimits });
    this.ready = new Promise<void>((resolve, reject) => {
      this.settle = (err) => (err ? reject(err) : resolve());
    });
    this.ready.catch(() => {});
    port1.on('message', (m: IndexWorkerAnswer) => this.received(m));
    this.worker.on('error', (err) => this.fail(new Error(`the search index could not be built on its worker thread: ${err.message}`)));
    this.worker.on('exit', (code) => {
      if (this.answer !== null) return;
      // Its answer may still wait on the port (the worker ends as soon as it has posted it).
      const m = receiveMessageOnPort(this.reply);
      if (m) this.received(m.message as IndexWorkerAnswer);
      else this.fail(new Error(`the search index's worker thread stopped (exit code ${code}) before it answered`));
    });
  }

  record(e: StoredEntity): void {
    if (this.abandoned) return;
    this.ids.push(e.id);
    const texts = searchTexts(e);
    const at = this.inBatch * SEARCH_FIELDS.length;
    for (let f = 0; f < texts.length; f++) {
      this.texts += texts[f]!;
      this.lengths[at + f] = texts[f]!.length;
    }
    if (++this.inBatch === BATCH_DOCS) this.flush();
  }

  restart(): void {
    this.abandon();
  }

  /**
   * The last TAIL_SHARE of a large catalogue file's bytes, read on the worker: it parses and
   * validates those records itself (checkRecord, as the main thread does) and indexes them, and
   * answers their columns; the main thread reads the records before them. Their documents follow
   * the main thread's in the order added (PostingsBuilder.append), so the postings are the ones
   * of a worker handed every record. Null when the file is not large (or tailShare is 0).
   */
  tail(file: string, fd: number, size: number): TailRead | null {
    const share = this.tailShare ?? (size >= INDEX_WORKER_MIN_BYTES ? TAIL_SHARE : 0);
    if (this.abandoned || !this.worker || !(share > 0 && share < 1)) return null;
    let started = 0;
    return {
      from: Math.floor(size * (1 - share)),
      start: (at) => {
        if (this.abandoned || !this.worker || this.tailFd !== null) return false;
        // The worker's own descriptor (closed only once it is done with it), on the same file.
        const own = fs.openSync(file, 'r');
        const a = fs.fstatSync(fd);
        const b = fs.fstatSync(own);
        if (a.dev !== b.dev || a.ino !== b.ino) {
          fs.closeSync(own);
          return false;
        }
        this.tailFd = own;
        started = Date.now();
        this.post({ kind: 'tail', fd: own, from: at, pairs: Math.ceil((size - at) / BYTES_PER_PAIR) });
        return true;
      },
      result: () => this.tailResult(started),
      drop: () => this.post({ kind: 'tail-drop' }),
    };
  }

  /** The worker's answer to its tail: blocks for it, up to four times as long as the main thread took for the rest (at least TAIL_WAIT_MIN_MS). */
  private tailResult(started: number): TailAnswer | null {
    const deadline = Date.now() + Math.max(TAIL_WAIT_MIN_MS, 4 * (Date.now() - started));
    for (;;) {
      // The worker posts its answer, then signals: a signal (read first) without a message is a broken promise.
      const signalled = Atomics.load(this.state, 1) === 1;
      const m = receiveMessageOnPort(this.tailReply);
      if (m) {
        this.closeTail();
        const answer = m.message as TailAnswer;
        if (answer.ok) for (const id of answer.columns.ids) this.ids.push(id);
        return answer;
      }
      if (signalled || this.abandoned || !this.worker || Date.now() > deadline) return null;
      Atomics.wait(this.state, 1, 0, 100);
    }
  }

  private closeTail(): void {
    if (this.tailFd === null) return;
    fs.closeSync(this.tailFd);
    this.tailFd = null;
  }

  /**
   * Every record is read: the worker numbers the documents in id order and answers with the
   * postings. `records`: the catalogue's records in id order (their positions give that order as
   * idOrder gives it over the records as read). `warm`: the words of a new instance's warm-up, which
   * the worker then counts over its postings too (warmWords()), instead of the main thread.
   */
  end(records: SortedRecords, warm?: WarmWordsAsk): void {
    if (this.abandoned) return;
    this.flush();
    // The index's columns now: the worker's last step (numbering its postings in id order) runs
    // beside what the main thread does next, so its share of the index is made while it runs.
    const columns = records.columns();
    this.ended = { records, columns };
    const order = records.positions === null ? null : Int32Array.from(records.positions);
    const quarantine = warm ? columns.quarantine.slice() : null;
    const transfer = [order?.buffer, quarantine?.buffer].filter((b): b is ArrayBuffer => b !== undefined);
    this.post({ kind: 'finish', positions: order, warm: warm && quarantine ? { ...warm, quarantine } : null }, transfer);
  }

  /**
   * The catalogue's records (the same records) in id order: the index is assembled from their
   * columns and the worker's answer (now, or when it arrives). After abandon(): built here, on the
   * main thread, from the records themselves.
   */
  complete(sorted: SortedRecords): void {
    this.sorted = sorted;
    if (this.abandoned && !this.built && !this.failure) {
      this.built = new SearchIndex(sorted.all());
      this.settle(null);
    } else if (this.answer) this.assemble();
  }

  /** The index, blocking until the worker answers when it has not yet (complete() first). Throws the build's failure. */
  index(): SearchIndex {
    if (this.sorted === null) throw new Error('IndexBuild.index() before complete()');
    const deadline = Date.now() + SYNC_WAIT_MS;
    while (!this.built && !this.failure) {
      const m = receiveMessageOnPort(this.reply);
      if (m) this.received(m.message as IndexWorkerAnswer);
      // The worker posts its answer, then signals: a signal without a message is a broken promise.
      else if (Atomics.load(this.state, 0) === 1) this.fail(new Error("the search index's worker thread signalled an answer that did not arrive"));
      else if (Atomics.wait(this.state, 0, 0, 1000) === 'timed-out' && Date.now() > deadline) {
        this.fail(new Error(`the search index's worker thread did not answer within ${SYNC_WAIT_MS / 1000} s`));
      }
    }
    if (this.failure) throw this.failure;
    return this.built!;
  }

  /** The warm-up's words counted on the worker (end()'s `warm`), once the index is built; else null (count them over index()). */
  warmWords(): WarmWords | null {
    return this.built ? this.warm : null;
  }

  /** Stops the worker; complete() then builds the index on the main thread. */
  abandon(): void {
    if (this.abandoned || this.built || this.failure) return;
    this.abandoned = true;
    this.ids = [];
    this.texts = '';
    this.stop();
  }

  private flush(): void {
    if (this.inBatch === 0) return;
    const lengths = this.lengths.slice(0, this.inBatch * SEARCH_FIELDS.length);
    this.post({ kind: 'batch', texts: this.texts, lengths }, [lengths.buffer]);
    this.texts = '';
    this.inBatch = 0;
  }

  private post(m: IndexWorkerMessage, transfer: ArrayBuffer[] = []): void {
    this.worker?.postMessage(m, transfer);
  }

  private received(m: IndexWorkerAnswer): void {
    if (this.answer || this.abandoned) return;
    this.answer = m;
    this.stop();
    if (!m.ok) this.fail(new Error(`the search index could not be built on its worker thread: ${m.message}`));
    else if (this.sorted) this.assemble();
  }

  /** The index from the worker's postings and the catalogue's own sorted records, checked to be numbered alike. */
  private assemble(): void {
    const answer = this.answer;
    const sorted = this.sorted;
    if (!answer?.ok || !sorted || this.built || this.failure) return;
    const { postings, order, warm } = answer;
    const n = this.ids.length;
    const ids = sorted.ids;
    let same = sorted.size === n && (order === null || order.length === n);
    for (let d = 0; same && d < n; d++) same = ids[d] === this.ids[order === null ? d : order[d]!];
    if (!same) {
      this.fail(new Error('the search index built on its worker thread numbers the records differently from the catalogue'));
      return;
    }
    try {
      // The columns made at end(), when these are the records it was given.
      this.built = indexOver(sorted, postings, this.ended?.records === sorted ? this.ended.columns : undefined);
    } catch (err) {
      this.fail(err as Error);
      return;
    }
    this.ids = [];
    this.ended = null;
    this.warm = warm;
    this.settle(null);
  }

  private fail(err: Error): void {
    if (this.built || this.failure || this.abandoned) return;
    this.failure = err;
    this.stop();
    this.settle(err);
  }

  private stop(): void {
    const w = this.worker;
    this.worker = null;
    this.reply.close();
    this.tailReply.close();
    // The tail's descriptor once the worker can no longer read it (a number closed sooner could be reused meanwhile).
    if (w) void w.terminate().finally(() => this.closeTail());
    else this.closeTail();
  }
}
