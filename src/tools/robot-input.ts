/** The input both robot-description tools take: one file (content) or a package (files, entry, args), and the REST archive upload. */
import { z } from 'zod';
import { invalidInput } from '../domain/shared/errors.js';
import { readArchive } from '../ingest/oss/archive.js';
import { DECODE_NOTES, PACKAGE_LIMITS } from '../ingest/oss/index.js';
import type { RestRoute } from './define.js';

export const packageInputShape = {
  files: z
    .array(z.object({ path: z.string().min(1).describe('relative, "/"-separated'), content: z.string() }).strict())
    .max(PACKAGE_LIMITS.max_package_files)
    .optional()
    .describe('Package files instead of content (≤2 MiB)'),
  entry: z.string().optional().describe('Top file of files'),
  args: z.record(z.string(), z.string()).optional().describe('xacro args'),
};

/** REST: POST the route a .zip or .tar.gz (Content-Type application/zip, application/gzip or application/octet-stream) with ?entry=...&arg.NAME=value. */
export function archiveUpload<I>(): NonNullable<RestRoute<I>['upload']> {
  return {
    contentTypes: ['application/zip', 'application/x-zip-compressed', 'application/gzip', 'application/x-gzip', 'application/x-tar+gzip', 'application/octet-stream'],
    toInput: (query) => {
      const entry = query.entry?.[query.entry.length - 1];
      if (!entry) throw invalidInput('entry', 'is required with an archive upload: ?entry=path/of/the/top/file inside the archive');
      const args: Record<string, string> = {};
      for (const [k, v] of Object.entries(query)) if (k.startsWith('arg.') && k.length > 4) args[k.slice(4)] = v[v.length - 1] ?? '';
      return { entry, ...(Object.keys(args).length > 0 ? { args } : {}) } as unknown as Partial<I>;
    },
    // In the worker pool (src/tools/offload.ts), after the rate-limit and key checks.
    unpack: (bytes) => {
      const { files, notes } = readArchive(bytes, 'body');
      if (files.length === 0) throw invalidInput('body', 'the archive holds no description file (.xacro, .urdf, .xml, .yaml)');
      // The bytes' encoding notes ride outside the validated arguments (a symbol key).
      return { files, [DECODE_NOTES]: notes } as unknown as Partial<I>;
    },
  };
}
