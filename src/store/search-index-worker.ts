/**
 * A worker thread that builds the search index's postings (started by search-index-build.ts): the
 * documents' texts arrive in batches while the main thread reads the catalogue; on `finish` it
 * answers on the reply port with the postings (typed arrays transferred, not copied), and the
 * warm-up's words when asked for (counted while the postings are made), and wakes a
 * main thread that waits for them. Any error is answered too, as a message, and ends the build.
 */
import { parentPort, workerData } from 'node:worker_threads';
import { countWords, PostingsBuilder, SEARCH_FIELDS } from '../domain/catalogue/search.js';
import type { IndexWorkerAnswer, IndexWorkerData, IndexWorkerMessage } from './search-index-build.js';

const port = parentPort;
if (!port) throw new Error('src/store/search-index-worker.ts runs as a worker thread (search-index-build.ts)');
const { reply, signal } = workerData as IndexWorkerData;
const state = new Int32Array(signal);
// Ids not kept: the main thread gives the documents' order, and a kept id (a slice of its batch's string) would keep the batch alive.
const builder = new PostingsBuilder({ keepIds: false });
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

port.on('message', (m: IndexWorkerMessage) => {
  if (done) return;
  try {
    if (m.kind === 'batch') addBatch(m.texts, m.lengths);
    else {
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
