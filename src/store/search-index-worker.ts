/**
 * A worker thread that builds the search index's postings (started by search-index-build.ts): the
 * documents' texts arrive in batches while the main thread reads the catalogue; on `finish` it
 * answers on the reply port with the postings (typed arrays transferred, not copied), and the
 * warm-up's words when asked for (counted while the postings are made), and wakes a
 * main thread that waits for them. Any error is answered too, as a message, and ends the build.
 *
 * A large catalogue's last records it reads itself (`tail`: IndexBuild.tail), validated as the main
 * thread validates them, into a builder of their own; it answers their columns on the tail port at
 * once, and adds their documents after the main thread's at `finish`, unless told to forget them
 * (`tail-drop`: the main thread read them after all).
 */
import { parentPort, workerData } from 'node:worker_threads';
import { countWords, PostingsBuilder, SEARCH_FIELDS, searchTexts } from '../domain/catalogue/search.js';
import { checkRecord } from './catalogue-check.js';
import { ColumnCollector } from './catalogue-records.js';
import { readJsonRecordsTail } from './json-records.js';
import type { IndexWorkerAnswer, IndexWorkerData, IndexWorkerMessage, TailAnswer } from './search-index-build.js';

const port = parentPort;
if (!port) throw new Error('src/store/search-index-worker.ts runs as a worker thread (search-index-build.ts)');
const { reply, tailReply, signal, pairs } = workerData as IndexWorkerData;
const state = new Int32Array(signal);
// Ids not kept: the main thread gives the documents' order, and a kept id (a slice of its batch's string) would keep the batch alive.
const builder = new PostingsBuilder({ keepIds: false, pairs });
/** The tail's documents, added after the main thread's at `finish` (null: none, or dropped). */
let tail: PostingsBuilder | null = null;
let done = false;

function answer(m: IndexWorkerAnswer, transfer: ArrayBuffer[] = []): void {
  done = true;
  reply.postMessage(m, transfer);
  // Wakes a main thread blocked in Atomics.wait (an index asked for before it was announced ready).
  Atomics.store(state, 0, 1);
  Atomics.notify(state, 0);
  port!.close();
}

/** One batch: every document's texts concatenated, with their lengths (SEARCH_FIELDS.length per document). */
function addBatch(texts: string, lengths: Int32Array): void {
  const fields = SEARCH_FIELDS.length;
  if (lengths.length % fields !== 0) throw new Error(`a batch of ${lengths.length} text lengths is not ${fields} per document`);
  let at = 0;
  const doc: string[] = new Array<string>(fields);
  for (let i = 0; i < lengths.length; i += fields) {
    for (let f = 0; f < fields; f++) {
      const end = at + lengths[i + f]!;
      doc[f] = texts.slice(at, end);
      at = end;
    }
    builder.add(doc);
  }
  if (at !== texts.length) throw new Error(`a batch of texts is ${texts.length} characters long, its lengths add up to ${at}`);
}

/** A record of the tail that checkRecord refused: where it is (the main thread reads it again for the error). */
class Refused {
  constructor(readonly index: number, readonly start: number, readonly end: number) {}
}

/** Reads the records from byte `from` of the file open at `fd` to its end (readJsonRecordsTail) and answers their columns. */
function readTail(fd: number, from: number, pairs: number): TailAnswer {
  const own = new PostingsBuilder({ keepIds: false, pairs });
  const columns = new ColumnCollector();
  try {
    const members = readJsonRecordsTail(fd, 'entities', from, (raw, i, start, end) => {
      let e;
      try {
        e = checkRecord(raw, i);
      } catch {
        throw new Refused(i, start, end);
      }
      own.add(searchTexts(e));
      columns.add(e, start, end);
    });
    tail = members ? own : null;
    return { ok: true, columns: columns.columns(), members };
  } catch (err) {
    if (err instanceof Refused) return { ok: false, invalid: { index: err.index, start: err.start, end: err.end } };
    return { ok: false, message: err instanceof Error ? err.message : String(err) };
  }
}

function answerTail(m: TailAnswer): void {
  tailReply.postMessage(m);
  Atomics.store(state, 1, 1);
  Atomics.notify(state, 1);
}

port.on('message', (m: IndexWorkerMessage) => {
  if (done) return;
  try {
    if (m.kind === 'batch') addBatch(m.texts, m.lengths);
    else if (m.kind === 'tail') answerTail(readTail(m.fd, m.from, m.pairs));
    else if (m.kind === 'tail-drop') tail = null;
    else {
      // The tail's documents follow the main thread's, as the records follow in the file.
      if (tail) builder.append(tail);
      tail = null;
      // The warm-up's words, counted here (the main thread has enough to do): the tokens' counts
      // made while the postings are, the words chosen from them.
      const w = m.warm;
      const { postings, order, counts } = builder.finish(m.positions, w ? { quarantine: w.quarantine, fields: w.fields } : undefined);
      const warm = w && counts ? countWords(postings.vocab, postings.tokStart, counts, w.n, w.narrowN, w.minDocs) : null;
      const buffers = [postings.tokStart, postings.postDoc, postings.postField, postings.docStart, postings.docTok, postings.docField, order].map((a) => a?.buffer as ArrayBuffer | undefined);
      answer({ ok: true, postings, order, warm }, buffers.filter((b): b is ArrayBuffer => b !== undefined));
    }
  } catch (err) {
    answer({ ok: false, message: err instanceof Error ? err.message : String(err) });
  }
});
