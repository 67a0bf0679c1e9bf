import { z } from 'zod';
import { extractRobotParts, ExtractRobotPartsOutput, MAX_INPUT_BYTES, MAX_REQUEST_BYTES } from '../ingest/oss/index.js';
import { defineTool, READ_ONLY } from './define.js';
import { archiveUpload, packageInputShape } from './robot-input.js';

export const extractRobotPartsTool = defineTool({
  name: 'extract_robot_parts',
  title: 'Extract joints and BOM lines',
  description:
    'Joints or BOM lines, as written, from URDF, xacro, BOM text or a package (files + entry + args). ' +
    'URDF: joints (type, links, axis, limits, child-link mass), counts, DOF, root link, masses; bad XML refused with line and column. ' +
    'BOM: Markdown or delimited table lines (item, quantity, prices, links, part numbers). ' +
    'Nothing guessed: what does not read exactly is in skipped. ' +
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
  }),
  outputSchema: ExtractRobotPartsOutput,
  annotations: READ_ONLY,
  offload: true,
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
