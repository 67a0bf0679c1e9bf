/**
 * Where a row of a shipped dataset (flange alias, bus bridge, supplier role) comes from: a record of
 * the upstream snapshot (../shared/reference/roboparts, CC BY 4.0), named by file and record path,
 * plus, where that record itself cites them, the vendor documents' URLs. Never free text.
 *
 * `record` is a path into the file: dot-separated keys, `[key=value]` selects the array element
 * whose `key` equals `value` (e.g. "flange_designations[id=ISO9409-1-A50-4-M6].aliases").
 */
import { z } from 'zod';

export const DataEvidence = z
  .object({
    file: z.string().regex(/^api\/[a-z_]+\.json$/).describe('Snapshot file, e.g. "api/mechanical_interfaces.json"'),
    record: z.string().min(1).describe('Path of the record in that file, e.g. "flange_designations[id=ISO9409-1-A50-4-M6].aliases"'),
    urls: z.array(z.string().url()).optional().describe('Vendor documents the snapshot record cites'),
  })
  .strict();
export type DataEvidence = z.infer<typeof DataEvidence>;
