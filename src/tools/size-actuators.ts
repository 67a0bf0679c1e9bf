import { z } from 'zod';
import { chooseActuators, GRAVITY_DEFAULT, JOINTS_MAX, PAYLOADS_MAX, PICKS, POSES_MAX, SAFETY_FACTOR_DEFAULT, SAMPLES_DEFAULT, SAMPLES_MAX, SizeActuatorsOutput, type TorqueReport } from '../domain/sizing/index.js';
import { DomainError } from '../domain/shared/errors.js';
import { MAX_REQUEST_BYTES } from '../ingest/oss/index.js';
import { jobCaller } from './run.js';
import { defineTool, READ_ONLY } from './define.js';
import { archiveUpload, packageInputShape } from './robot-input.js';

export const sizeActuatorsTool = defineTool({
  name: 'size_actuators',
  errors: ['not_found', 'not_applicable'],
  title: 'Size actuators for a robot',
  description:
    'Static gravity torque (N·m; N prismatic) each joint holds, root fixed, worst of poses and seeded samples; ' +
    'actuators whose exactly read torque_rated ≥ need × safety_factor (unread: near misses); bom_items for check_bom. No acceleration, friction, contact.',
  inputSchema: z.object({
    content: z.string().min(1).optional().describe('URDF or xacro'),
    ...packageInputShape,
    poses: z.array(z.record(z.string(), z.number())).max(POSES_MAX).optional().describe('{joint: rad or m}, others 0'),
    samples: z.number().int().min(0).max(SAMPLES_MAX).optional().describe(`Default ${SAMPLES_DEFAULT}, 0 with poses`),
    payloads: z.array(z.object({ link: z.string().min(1), mass_kg: z.number().positive() }).strict()).max(PAYLOADS_MAX).optional().describe('At the link frame origin'),
    safety_factor: z.number().min(1).max(10).default(SAFETY_FACTOR_DEFAULT).describe('Covers acceleration, friction, losses'),
    gravity_m_s2: z.number().positive().max(100).default(GRAVITY_DEFAULT).describe('m/s²'),
    joints: z.array(z.string().min(1)).min(1).max(JOINTS_MAX).optional().describe('Subset'),
    pick: z.enum(PICKS).default('lightest').describe('Order'),
    host: z.string().max(200).optional().describe('Computer id'),
  }),
  outputSchema: SizeActuatorsOutput,
  archiveJob: true,
  annotations: READ_ONLY,
  rest: [{ method: 'POST', path: '/api/oss/size', summary: 'size_actuators on inline text or a package (JSON files, or a .zip / .tar.gz body with ?entry=)', bodyLimitBytes: MAX_REQUEST_BYTES, upload: archiveUpload() }],
  handler: async (input, ctx) => {
    const { safety_factor, pick, host, ...torqueInput } = input;
    // The description is parsed and its torques computed in the worker pool; the catalogue is read here.
    // An uploaded package (REST) is unpacked there too, after the rate limit.
    const report = (await ctx.deps.jobs.run('size_torques', { input: torqueInput, ...(ctx.archive ? { archive: ctx.archive } : {}) }, { label: 'size_actuators', ...jobCaller(ctx) })) as TorqueReport;
    const hostRecord = host === undefined ? null : await ctx.deps.catalogue.get(host);
    if (host !== undefined && !hostRecord) throw new DomainError('not_found', `host: no catalogue part ${JSON.stringify(host)}; give the id of a computer (see search_parts category computing)`, { field: 'host' });
    const { items } = await ctx.deps.catalogue.list({ category: 'actuators' });
    const out = chooseActuators(report, ctx.deps.specs, items, { safety_factor, pick });
    return hostRecord ? { ...out, bom_items: [...out.bom_items, { id: hostRecord.id, quantity: 1 }] } : out;
  },
  text: (o) => {
    const top = [...o.joints].sort((a, b) => (b.required_torque_nm ?? 0) - (a.required_torque_nm ?? 0))[0];
    const need = top ? `largest need ${top.required_torque_nm ?? top.required_force_n} ${top.required_torque_nm !== null ? 'N·m' : 'N'} at ${top.joint_name}` : 'no joint';
    const parts = o.bom_items.map((b) => `${b.quantity}× ${b.id}`).join(', ');
    return `${o.joints.length - o.unsized.length} of ${o.joints.length} joint(s) sized (${need}, safety factor ${o.method.safety_factor})${o.unsized.length ? `; no catalogue part holds ${o.unsized.join(', ')}` : ''}${parts ? `; BOM: ${parts}` : ''}.`;
  },
});
