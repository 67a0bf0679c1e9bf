import { z } from 'zod';
import { lintRobotDescription, LintResult, MAX_INPUT_BYTES, MAX_REQUEST_BYTES } from '../ingest/oss/index.js';
import { defineTool, READ_ONLY } from './define.js';
import { archiveUpload, packageInputShape } from './robot-input.js';

export const lintUrdfTool = defineTool({
  name: 'lint_urdf',
  title: 'Lint a URDF robot description',
  description:
    'Checks a URDF, xacro or description package (files + entry + args) as urdfdom\'s check_urdf builds it: XML, names as written, one root, joint types, limits, numbers, mimic, materials, link parts. ' +
    `Each finding: line (file in a package), severity, fix, check_urdf (refuses/warns/accepts; accepts: stricter here). At most ${MAX_INPUT_BYTES} bytes (2 MiB) of UTF-8.`,
  inputSchema: z.object({
    content: z.string().min(1).optional().describe('The URDF or single-file xacro as text (a xacro needing includes: send files)'),
    ...packageInputShape,
  }),
  outputSchema: LintResult,
  annotations: READ_ONLY,
  offload: true,
  rest: [{ method: 'POST', path: '/api/oss/lint', summary: 'Lint URDF text or a package (urdfdom check_urdf checks, mimic and transmission references)', bodyLimitBytes: MAX_REQUEST_BYTES, upload: archiveUpload() }],
  handler: async (input) => lintRobotDescription(input),
});
