import { z } from 'zod';
import { extractRobotParts, ExtractRobotPartsOutput, MAX_INPUT_BYTES, MAX_REQUEST_BYTES } from '../ingest/oss/index.js';
import { defineTool, READ_ONLY } from './define.js';
import { archiveUpload, packageInputShape } from './robot-input.js';

export const extractRobotPartsTool = defineTool({
  name: 'extract_robot_parts',
  title: 'Extract joints and BOM lines from robot files',
  description:
    'Runs the open-source-layer extractors on URDF, xacro or BOM text given inline, or on a robot description package (files + entry + args), and returns joints or BOM lines as structured records, values as written. ' +
    'URDF: each joint (name, type, parent and child links, axis, limit values, child-link mass; in a package the file it is written in) with counts by joint type, the DOF (revolute + prismatic + continuous without mimic), and mass: the root link, the total mass and the mass of each joint\'s subtree. ' +
    'xacro is expanded first (includes, $(find pkg), args, load_yaml from the files sent); malformed XML is refused with its line and column. ' +
    'BOM: each line of Markdown pipe tables or tab/comma/semicolon-separated text (item, quantity, unit prices and totals with the currency as written, links, part and supplier numbers; columns not read listed in ignored_columns). ' +
    'Nothing is converted or guessed: a currency is named only when the header, the cell or the document determine exactly one, and anything that does not read exactly is listed in skipped with a reason code. ' +
    `kind "auto" detects the format. Input: at most ${MAX_INPUT_BYTES} bytes (2 MiB) of UTF-8 text (content, or all files together); pass decoded text.`,
  inputSchema: z.object({
    content: z
      .string()
      .min(1)
      .optional()
      .describe('The file content as text: a URDF or single-file xacro (XML), a Markdown document with BOM tables (a BOM file or a README), or a delimited BOM (first row the header). At most 2 MiB of UTF-8. Omit it when sending files.'),
    kind: z
      .enum(['auto', 'urdf', 'bom_md', 'bom_csv'])
      .default('auto')
      .describe('Extractor: urdf, bom_md (Markdown tables), bom_csv (tab, comma or semicolon separated), or auto (default) to detect from the content'),
    ...packageInputShape,
  }),
  outputSchema: ExtractRobotPartsOutput,
  annotations: READ_ONLY,
  rest: [{ method: 'POST', path: '/api/oss/extract', summary: 'Run the URDF / BOM extractors on inline text or a package (JSON files, or a .zip / .tar.gz body with ?entry=)', bodyLimitBytes: MAX_REQUEST_BYTES, upload: archiveUpload() }],
  handler: async (input) => extractRobotParts(input),
  text: (o) => {
    const c = o.counts;
    const detail = c.joints_by_type
      ? ` (${Object.entries(c.joints_by_type).map(([k, v]) => `${v} ${k}`).join(', ') || 'no joints'}; dof ${c.dof}${o.mass?.total != null ? `; total mass ${o.mass.total} kg` : ''})`
      : ` from ${c.bom_tables ?? 0} BOM table(s) of ${c.tables ?? 0}`;
    const lint = o.lint ? ` Lint: ${o.lint.errors} error(s), ${o.lint.warnings} warning(s).` : '';
    const pkg = o.package ? ` Package ${o.package.name ?? '(unnamed)'}, entry ${o.package.entry}.` : '';
    return `${o.kind}${o.xacro ? ' (expanded from xacro)' : ''}: ${c.records} record(s)${detail}; ${c.skipped} skipped.${lint}${pkg}`;
  },
});
