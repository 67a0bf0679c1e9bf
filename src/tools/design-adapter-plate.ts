import { z } from 'zod';
import { designAdapterPlate, PLATE_FORMATS, PLATE_HOLE_OPTIONS, PLATE_MEDIA_TYPES, PlateAnswer, type PlateFormat } from '../domain/plates/index.js';
import { NO_LINKS_NOTE } from '../domain/shared/page-urls.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';
import { plateFileFor } from './plate-files.js';
import { jobCaller } from './run.js';
import { EntityId } from './schemas.js';

const Designation = z.string().min(1).max(100);

// tools/list budget: the design is listed with its features typed and the rest open (the domain's
// PlateDesign schema types all of it; the handler's answer is that type).
const PlateOutput = PlateAnswer.extend({
  ruling: z.object({ verdict: z.string(), reason: z.string() }).catchall(z.unknown()),
  design: z.object({}).catchall(z.unknown()).nullable(),
  format: z.enum(PLATE_FORMATS),
});
type PlateOutput = PlateAnswer & { format: PlateFormat };

export const designAdapterPlateTool = defineTool({
  name: 'design_adapter_plate',
  title: 'Design an ISO 9409-1 adapter plate',
  description:
    'Adapter plate between two registered ISO 9409-1 flanges or parts declaring them: side a counterbored for socket-head screws, side b tapped or nut pockets. ' +
    'Each feature (mm) with rule and source. STL, 3MF, OpenSCAD: resource links (size, type); REST format. Not load-rated.',
  inputSchema: z.object({
    a: Designation.optional().describe('Side a designation (counterbored); or part_a'),
    b: Designation.optional().describe('Side b designation; or part_b'),
    part_a: EntityId.optional().describe('Or a part id'),
    part_b: EntityId.optional().describe('Or a part id'),
    b_holes: z.enum(PLATE_HOLE_OPTIONS).default('tapped').describe('Side b holes'),
    thickness_mm: z.number().positive().max(200).optional().describe('Override, mm'),
    format: z.enum(PLATE_FORMATS).default('json').describe('REST: the file returned'),
  }),
  outputSchema: PlateOutput,
  annotations: READ_ONLY,
  cacheable: true,
  rest: [
    {
      method: 'GET',
      path: '/api/adapter-plate',
      summary: 'Adapter plate for two flanges: JSON design, or the STL, 3MF or OpenSCAD file',
      produces: [
        { contentType: PLATE_MEDIA_TYPES.json, schema: PlateOutput, description: 'format json (the default): the design with every feature, rule and source' },
        { contentType: PLATE_MEDIA_TYPES.stl, schema: z.string().describe('binary STL'), description: 'format stl: binary STL, sent as an attachment' },
        { contentType: PLATE_MEDIA_TYPES['3mf'], schema: z.string().describe('3MF package (zip)'), description: 'format 3mf: a 3MF package, sent as an attachment' },
        { contentType: PLATE_MEDIA_TYPES.scad, schema: z.string(), description: 'format scad: the OpenSCAD source of the same design' },
      ],
      render: async (o, ctx) => {
        const out = o as PlateOutput;
        // Mesh formats are built in the worker pool (the caller's fair share), cached per design.
        const file = out.format === 'json' ? null : await plateFileFor(out, out.format, ctx.deps, jobCaller(ctx));
        if (!file) return { body: JSON.stringify(out) };
        return { contentType: file.mediaType, headers: { 'Content-Disposition': `attachment; filename="${file.name}"` }, body: file.body };
      },
    },
  ],
  handler: async ({ format, ...req }, ctx) => {
    const parts = partsContext(ctx);
    const answer = await designAdapterPlate({ ...ctx.deps.knowledge, parts, baseUrl: parts.baseUrl }, req);
    return { ...answer, format } as z.infer<typeof PlateOutput>;
  },
  text: (output) => {
    const o = output as unknown as PlateOutput;
    return o.design
      ? `Adapter plate ${o.design.side_a.designation} / ${o.design.side_b.designation}: disc ${o.design.outline.diameter_mm} mm x ${o.design.outline.thickness_mm} mm, ${o.design.features.length} features, side b turned ${o.design.angular_offset.side_b_deg} deg` +
        `${o.design.warnings.length ? `; ${o.design.warnings.length} warning(s)` : ''}. Not load-rated.${o.page_url === undefined ? ` ${NO_LINKS_NOTE}` : ''}`
      : o.reason;
  },
  // The files as links with their media type and size: built here (mesh formats in the worker
  // pool, cached per design), so the read that follows is served from the cache.
  links: async (output, ctx) => {
    const o = output as unknown as PlateOutput;
    const files = o.files.filter((f) => f.format !== 'json');
    const bodies = await Promise.all(files.map((f) => plateFileFor(o, f.format, ctx.deps, jobCaller(ctx))));
    return files.map((f, i) => {
      const body = bodies[i]?.body;
      const size = body === undefined ? undefined : typeof body === 'string' ? Buffer.byteLength(body) : body.length;
      return { uri: f.uri, name: f.name, mimeType: f.media_type, ...(size === undefined ? {} : { size }) };
    });
  },
});
