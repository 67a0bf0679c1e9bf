import { z } from 'zod';
import { lintRobotDescription, LintResult, MAX_INPUT_BYTES, MAX_REQUEST_BYTES } from '../ingest/oss/index.js';
import { defineTool, READ_ONLY } from './define.js';
import { archiveUpload, packageInputShape } from './robot-input.js';

export const lintUrdfTool = defineTool({
  name: 'lint_urdf',
  title: 'Lint a URDF robot description',
  description:
    'Checks a URDF (or a xacro, or a description package: files + entry + args) the way urdfdom\'s check_urdf does when it builds the model: well-formed XML (an error with line and column), a <robot> with a name and at least one link, exactly one root link, unique link and joint names, every joint with a valid type and a parent and child that are defined links, ' +
    'a link the child of at most one joint, <limit> with effort and velocity on revolute and prismatic joints, numbers that parse, a <mimic> naming a joint. ok is true exactly when check_urdf accepts the model, except where this is stricter on purpose: links off the tree (a cycle the root does not reach) and a mimic of an undefined joint or of itself are errors. ' +
    'Warnings (check_urdf builds the model): numbers inside a link that do not parse, a revolute limit without lower/upper, a mimic of a mimic joint, a <transmission> naming an undefined joint. ' +
    `Each finding has its line (and file, in a package), severity and a fix hint. Input: at most ${MAX_INPUT_BYTES} bytes (2 MiB) of UTF-8 (content, or all files together).`,
  inputSchema: z.object({
    content: z.string().min(1).optional().describe('The URDF as text (XML). At most 2 MiB of UTF-8. A single-file xacro is expanded first; one that needs includes or $(find) is refused naming them: send the package as files instead.'),
    ...packageInputShape,
  }),
  outputSchema: LintResult,
  annotations: READ_ONLY,
  rest: [{ method: 'POST', path: '/api/oss/lint', summary: 'Lint URDF text or a package (urdfdom check_urdf checks, mimic and transmission references)', bodyLimitBytes: MAX_REQUEST_BYTES, upload: archiveUpload() }],
  handler: async (input) => lintRobotDescription(input),
});
