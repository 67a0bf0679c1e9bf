import { z } from 'zod';
import { extractRobotParts, ExtractRobotPartsOutput, MAX_INPUT_BYTES, MAX_REQUEST_BYTES } from '../ingest/oss/index.js';
import { defineTool, READ_ONLY } from './define.js';
import { archiveUpload, packageInputShape } from './robot-input.js';
import { Cursor, decodeCursor, encodeCursor, NextCursor, recordsWithin } from './schemas.js';
import { invalidInput } from '../domain/shared/errors.js';

/** The most characters of records one answer holds (the rest of the 200,000-character budget: counts, skipped, tables, lint). */
export const EXTRACT_PAGE_CHARS = 120_000;

export const extractRobotPartsTool = defineTool({
  name: 'extract_robot_parts',
  title: 'Extract joints and BOM lines',
  description:
    'Joints or BOM lines as written, from URDF, xacro, BOM text or a package (files, entry, args). ' +
    'URDF: joints (type, links, axis, limits, child mass), DOF, root, masses; bad XML: line, column. ' +
    'BOM: Markdown or delimited tables. Nothing guessed: the rest is in skipped. Records paged (cursor). ' +
    `At most ${MAX_INPUT_BYTES / 1048576} MiB.`,
  inputSchema: z.object({
    content: z
      .string()
      .min(1)
      .optional()
      .describe('URDF, xacro, Markdown BOM tables or a delimited BOM (header first)'),
    kind: z
      .enum(['auto', 'urdf', 'bom_md', 'bom_csv'])
      .default('auto')
      .describe('urdf, bom_md, bom_csv (tab, comma or semicolon) or auto (default)'),
    ...packageInputShape,
    cursor: Cursor.optional(),
  }),
  outputSchema: ExtractRobotPartsOutput.extend({ next_cursor: NextCursor }),
  annotations: READ_ONLY,
  offload: true,
  rest: [{ method: 'POST', path: '/api/oss/extract', summary: 'Run the URDF / BOM extractors on inline text or a package (JSON files, or a .zip / .tar.gz body with ?entry=)', bodyLimitBytes: MAX_REQUEST_BYTES, upload: archiveUpload() }],
  // Records are paged (a 2 MiB URDF's 6,000 joints were 2,143,655 characters in one answer); the rest of the answer is whole on every page.
  handler: async ({ cursor, ...input }) => {
    const out = extractRobotParts(input);
    const from = decodeCursor(cursor);
    if (from > 0 && from >= out.records.length) throw invalidInput('cursor', `names no page of these ${out.records.length} record(s): call again without cursor`);
    const end = from + recordsWithin(out.records.slice(from), EXTRACT_PAGE_CHARS);
    const records = out.records.slice(from, end);
    if (records.length === out.records.length) return { ...out, next_cursor: null };
    // A page's mass subtrees are those of its joints (one per joint: 6,000 were ~300,000 characters).
    const joints = new Set(records.map((r) => (r.record_type === 'urdf_joint' ? r.joint_name : null)));
    const mass = out.mass && { ...out.mass, subtrees: out.mass.subtrees.filter((t) => joints.has(t.joint)) };
    return { ...out, records, ...(mass ? { mass } : {}), next_cursor: end < out.records.length ? encodeCursor(end) : null };
  },
  text: (o) => {
    const c = o.counts;
    const detail = c.joints_by_type
      ? ` (${Object.entries(c.joints_by_type).map(([k, v]) => `${v} ${k}`).join(', ') || 'no joints'}; dof ${c.dof}${o.mass?.total != null ? `; total mass ${o.mass.total} kg` : ''})`
      : ` from ${c.bom_tables ?? 0} BOM table(s) of ${c.tables ?? 0}`;
    const lint = o.lint ? ` Lint: ${o.lint.errors} error(s), ${o.lint.warnings} warning(s).` : '';
    const pkg = o.package ? ` Package ${o.package.name ?? '(unnamed)'}, entry ${o.package.entry}.` : '';
    const page = o.next_cursor ? ` This page: ${o.records.length} record(s); more with cursor=${o.next_cursor}.` : '';
    return `${o.kind}${o.xacro ? ' (expanded from xacro)' : ''}: ${c.records} record(s)${detail}; ${c.skipped} skipped.${page}${lint}${pkg}`;
  },
});
