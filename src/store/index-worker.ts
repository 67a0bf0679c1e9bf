/**
 * Worker thread: builds the search index's arrays for a large catalogue file while the main thread
 * reads and validates the same file (src/store/index-job.ts starts it). It keeps only the fields
 * the index reads of each record; the typed arrays are transferred back, not copied. The main
 * thread uses the result only when it indexes exactly the records it validated, in the same order.
 */
import fs from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import { buildIndexParts, indexDoc, type IndexDoc } from '../domain/search.js';
import { readJsonRecords } from './json-records.js';

const { file } = workerData as { file: string };
try {
  const docs: IndexDoc[] = [];
  const members = readJsonRecords(fs.readFileSync(file), 'entities', (r) => docs.push(indexDoc(r as IndexDoc)));
  if (members === null) {
    parentPort!.postMessage({ error: 'the catalogue file is not an object with an entities array' });
  } else {
    const parts = buildIndexParts(docs);
    const buffers = [parts.quarantine, parts.tokStart, parts.postDoc, parts.postField, parts.docStart, parts.docTok, parts.docField].map((a) => a.buffer as ArrayBuffer);
    parentPort!.postMessage({ parts }, buffers);
  }
} catch (err) {
  // A record the index cannot read is also one the main thread refuses: it reports the error.
  parentPort!.postMessage({ error: err instanceof Error ? err.message : String(err) });
}
