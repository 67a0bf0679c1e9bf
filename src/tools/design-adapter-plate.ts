import { z } from 'zod';
import { designAdapterPlate, PLATE_FORMATS, PLATE_HOLE_OPTIONS, PlateAnswer } from '../domain/plates/index.js';
import { plateFile } from '../geometry/plate-files.js';
import { partsContext } from './context.js';
import { defineTool, READ_ONLY } from './define.js';
import { EntityId } from './schemas.js';

const Designation = z.string().min(1).max(100);

const PlateOutput = PlateAnswer.extend({ format: z.enum(PLATE_FORMATS).describe('The format asked for (REST returns that file; MCP links every file)') });
type PlateOutput = z.infer<typeof PlateOutput>;

export const designAdapterPlateTool = defineTool({
  name: 'design_adapter_plate',
  title: 'Design an adapter plate between two ISO 9409-1 flanges',
  description:
    'An adapter plate for two registered ISO 9409-1 flanges (any listed written form, e.g. "ISO9409-1-A50-4-M6" or "ISO 9409-1-50-4-M6"), or for two catalogue parts whose flanges are declared: ' +
    "side a's pattern as counterbored clearance holes for socket-head cap screws, side b's as tapped holes or (b_holes nut) clearance holes with nut pockets, both on their registry pitch circles, turned so no holes meet. " +
    'Every feature (kind, diameter, depth, x, y in mm) comes with its rule and source. Files: JSON, binary STL, 3MF and OpenSCAD source (MCP: resource links robotparts://plates/...; REST: format=stl|3mf|scad returns the file). ' +
    'Not load-rated. The same flange on both sides answers that no plate is needed; an unregistered designation is refused with the registered forms.',
  inputSchema: z.object({
    a: Designation.optional().describe('Side a flange designation (its screws go through the plate, heads counterbored); or give part_a'),
    b: Designation.optional().describe('Side b flange designation (its screws go into the plate); or give part_b'),
    part_a: EntityId.optional().describe('Catalogue part for side a, whose declared flange is used'),
    part_b: EntityId.optional().describe('Catalogue part for side b'),
    b_holes: z.enum(PLATE_HOLE_OPTIONS).default('tapped').describe('Side b holes: tapped (tap drill) or nut (clearance hole with a nut pocket in face a)'),
    thickness_mm: z.number().positive().max(200).optional().describe('Plate thickness override, mm (default: the thickness rule)'),
    format: z.enum(PLATE_FORMATS).default('json').describe('REST: the file returned (json, stl, 3mf, scad). MCP answers JSON and links every file'),
  }),
  outputSchema: PlateOutput,
  annotations: READ_ONLY,
  cacheable: true,
  rest: [
    {
      method: 'GET',
      path: '/api/adapter-plate',
      summary: 'Adapter plate for two flanges: JSON design, or the STL, 3MF or OpenSCAD file',
      render: async (o) => {
        const out = o as PlateOutput;
        const file = out.format === 'json' ? null : await plateFile(out, out.format);
        if (!file) return { body: JSON.stringify(out) };
        return { contentType: file.mediaType, headers: { 'Content-Disposition': `attachment; filename="${file.name}"` }, body: file.body };
      },
    },
  ],
  handler: async ({ format, ...req }, ctx) => {
    const parts = partsContext(ctx);
    const answer = await designAdapterPlate({ ...ctx.deps.knowledge, parts, baseUrl: parts.baseUrl }, req);
    return { ...answer, format };
  },
  text: (o) =>
    o.design
      ? `Adapter plate ${o.design.side_a.designation} / ${o.design.side_b.designation}: disc ${o.design.outline.diameter_mm} mm x ${o.design.outline.thickness_mm} mm, ${o.design.features.length} features, side b turned ${o.design.angular_offset.side_b_deg} deg` +
        `${o.design.warnings.length ? `; ${o.design.warnings.length} warning(s)` : ''}. Not load-rated.`
      : o.reason,
  links: (o) => o.files.filter((f) => f.format !== 'json').map((f) => ({ uri: f.uri, name: f.name, mimeType: f.media_type })),
});
