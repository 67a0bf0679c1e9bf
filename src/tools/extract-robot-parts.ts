import { z } from 'zod';
import { invalidInput } from '../domain/errors.js';
import { expandUrdfXacro, extract, ExtractionResult, MAX_INPUT_BYTES, MAX_RECORDS, MAX_REQUEST_BYTES, MAX_SKIPPED_LISTED } from '../ingest/oss/index.js';
import { LintSummary, lintUrdf } from '../ingest/oss/lint.js';
import { defineTool, READ_ONLY } from './define.js';

export const extractRobotPartsTool = defineTool({
  name: 'extract_robot_parts',
  title: 'Extract joints and BOM lines from robot files',
  description:
    'Runs the open-source-layer extractors on URDF or BOM text given inline and returns joints or BOM lines as structured records, values as written. ' +
    'URDF: each joint (name, type, parent and child links, axis, limit values, child-link mass) with counts by joint type and the DOF (revolute + prismatic + continuous). ' +
    'BOM: each line of Markdown pipe tables or tab/comma/semicolon-separated text (item, quantity, unit prices and totals with the currency as written, links, part and supplier numbers). ' +
    'Nothing is converted or guessed: a currency is named only when the column header and the cell determine exactly one, and anything that does not read exactly is listed in skipped with a reason code. ' +
    `kind "auto" detects the format. Input: at most ${MAX_INPUT_BYTES} bytes (2 MiB) of UTF-8 text; pass decoded text (a UTF-16 file must be decoded first).`,
  inputSchema: z.object({
    content: z
      .string()
      .min(1)
      .describe('The file content as text: a URDF (XML), a Markdown document with BOM tables (a BOM file or a README), or a delimited BOM (first row the header). At most 2 MiB of UTF-8.'),
    kind: z
      .enum(['auto', 'urdf', 'bom_md', 'bom_csv'])
      .default('auto')
      .describe('Extractor: urdf, bom_md (Markdown tables), bom_csv (tab, comma or semicolon separated), or auto (default) to detect from the content'),
  }),
  outputSchema: ExtractionResult.extend({
    detected: z.boolean().describe('true when kind was auto-detected'),
    lint: LintSummary.nullable().describe('urdf: the lint_urdf summary of the text (urdfdom check_urdf checks, mimic and transmission references; lint_urdf lists the findings); null for BOM input'),
    limits: z.object({ max_input_bytes: z.number().int(), max_records: z.number().int(), max_skipped_listed: z.number().int() }).strict(),
  }),
  annotations: READ_ONLY,
  offload: true,
  rest: [{ method: 'POST', path: '/api/oss/extract', summary: 'Run the URDF / BOM extractors on inline text', bodyLimitBytes: MAX_REQUEST_BYTES }],
  handler: async ({ content, kind }) => {
    const result = extract(content, kind, 'content');
    if (result.kind === null) {
      throw invalidInput('content', `${result.skipped[0]?.reason ?? 'not recognised'}; pass kind (urdf, bom_md or bom_csv) to force an extractor`);
    }
    // Lint what was extracted: the expanded URDF when the input was xacro.
    const lint = result.kind === 'urdf' ? lintUrdf(result.xacro ? expandUrdfXacro(content).text : content).summary : null;
    return { ...result, detected: kind === 'auto', lint, limits: { max_input_bytes: MAX_INPUT_BYTES, max_records: MAX_RECORDS, max_skipped_listed: MAX_SKIPPED_LISTED } };
  },
  text: (o) => {
    const c = o.counts;
    const detail = c.joints_by_type
      ? ` (${Object.entries(c.joints_by_type).map(([k, v]) => `${v} ${k}`).join(', ') || 'no joints'}; dof ${c.dof})`
      : ` from ${c.bom_tables ?? 0} BOM table(s) of ${c.tables ?? 0}`;
    const lint = o.lint ? ` Lint: ${o.lint.errors} error(s), ${o.lint.warnings} warning(s).` : '';
    return `${o.kind}${o.xacro ? ' (expanded from xacro)' : ''}: ${c.records} record(s)${detail}; ${c.skipped} skipped.${lint}`;
  },
});
