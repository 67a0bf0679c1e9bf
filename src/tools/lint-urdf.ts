import { z } from 'zod';
import { lintRobotDescription, LintResult, MAX_INPUT_BYTES, MAX_REQUEST_BYTES } from '../ingest/oss/index.js';
import { defineTool, READ_ONLY } from './define.js';
import { archiveUpload, packageInputShape } from './robot-input.js';

export const lintUrdfTool = defineTool({
  name: 'lint_urdf',
  title: 'Lint a URDF robot description',
  description:
    'Checks a URDF, xacro or package (files + entry + args) as urdfdom\'s check_urdf does: XML, encoding, names, one root, joint types, limits, numbers, mimic, materials, links. ' +
    `Each finding: line (and file), severity, fix, check_urdf (refuses/warns/accepts; accepts: stricter here). At most ${MAX_INPUT_BYTES / 1048576} MiB.`,
  inputSchema: z.object({
    content: z.string().min(1).optional().describe('URDF or xacro text (includes: use files)'),
    ...packageInputShape,
  }),
  outputSchema: LintResult,
  annotations: READ_ONLY,
  offload: true,
  rest: [{ method: 'POST', path: '/api/oss/lint', summary: 'Lint URDF text or a package (urdfdom check_urdf checks, mimic and transmission references)', bodyLimitBytes: MAX_REQUEST_BYTES, upload: archiveUpload() }],
  handler: async (input) => lintRobotDescription(input),
  text: lintSummaryLine,
});

/** "ok: ..." or "N error(s): first ...": the verdict first, then the first error (or the counts). */
function lintSummaryLine({ summary: s, findings }: LintResult): string {
  const robot = s.robot_name === null ? 'robot' : `robot "${s.robot_name}"`;
  const model = `${robot}, ${s.links} link(s), ${s.joints} joint(s), ${s.warnings} warning(s)`;
  if (s.ok) return `ok: ${model}.`;
  const e = findings.find((f) => f.severity === 'error');
  if (!e) return `${s.errors} error(s): ${model}.`;
  const where = e.line === null ? '' : ` at ${e.file ? `${e.file}:` : 'line '}${e.line}`;
  return `${s.errors} error(s): first ${e.code}${where}: ${e.message} (fix: ${e.fix})`;
}
