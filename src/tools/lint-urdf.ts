import { z } from 'zod';
import { assertInputSize, expandUrdfXacro, isXacro, MAX_INPUT_BYTES, MAX_REQUEST_BYTES } from '../ingest/oss/index.js';
import { LintResult, lintUrdf } from '../ingest/oss/lint.js';
import { defineTool, READ_ONLY } from './define.js';

export const lintUrdfTool = defineTool({
  name: 'lint_urdf',
  title: 'Lint a URDF robot description',
  description:
    'Checks URDF text the way urdfdom\'s check_urdf does when it builds the model: exactly one root link, unique link and joint names, every joint with a valid type and a parent and child that are defined links, ' +
    'a link the child of at most one joint, <limit> with effort and velocity on revolute and prismatic joints, numeric attributes that parse. Also: mimic joints follow a joint that exists and is not itself a mimic; ' +
    `joints named in <transmission> exist. Each finding has its line, severity (error or warning) and a fix hint. Input: at most ${MAX_INPUT_BYTES} bytes (2 MiB) of UTF-8.`,
  inputSchema: z.object({
    content: z.string().min(1).describe('The URDF as text (XML). At most 2 MiB of UTF-8. A single-file xacro is expanded first (line numbers then refer to the expansion); one that needs includes, $(find) or outside arguments is refused.'),
  }),
  outputSchema: LintResult,
  annotations: READ_ONLY,
  offload: true,
  rest: [{ method: 'POST', path: '/api/oss/lint', summary: 'Lint URDF text (urdfdom check_urdf checks, mimic and transmission references)', bodyLimitBytes: MAX_REQUEST_BYTES }],
  handler: async ({ content }) => {
    assertInputSize(content, 'content');
    // A single-file xacro is expanded first (refused, naming what is missing, otherwise).
    return lintUrdf(isXacro(content) ? expandUrdfXacro(content).text : content);
  },
});
