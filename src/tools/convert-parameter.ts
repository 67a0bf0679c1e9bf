import { z } from 'zod';
import { compareParameters, convert, parseParameter } from '../domain/parameters/index.js';
import { MAX_NOTATION_LENGTH } from '../domain/parameters/parse.js';
import { ConvertFailSchema, ConvertOkSchema, PairComparisonSchema, ParsedParameterSchema } from '../domain/parameters/schemas.js';
import { defineTool, READ_ONLY } from './define.js';

const Notation = z
  .string()
  .min(1)
  .max(MAX_NOTATION_LENGTH)
  .regex(/\S/, 'must not be blank');

/** The conversion without its `parsed` (the same reading is the output's `parsed`). */
const Conversion = z.discriminatedUnion('ok', [ConvertOkSchema.omit({ parsed: true }), ConvertFailSchema.omit({ parsed: true })]);
/** The pair comparison without `a` (the same reading is the output's `parsed`); `b` is compare_with read. */
const Comparison = PairComparisonSchema.omit({ a: true });

export const convertParameterTool = defineTool({
  name: 'convert_parameter',
  title: 'Read and convert a vendor parameter',
  description:
    'Reads a vendor notation exactly ("0.11 sec/60°", "4.1 Nm @ 12V"): quantity, SI value, formula, conditions (voltage, peak/rated, output end), dialect, level A-D. ' +
    '`to`: exact conversion (other quantity: ok=false). `compare_with`: comparable? (level, reason, SI order). ' +
    'Unreadable: recognized=false. Prefixes: case matters.',
  inputSchema: z.object({
    value: Notation.describe('Verbatim, e.g. "0.11 sec/60°", "15 kgf·cm"'),
    to: z
      .string()
      .min(1)
      .max(40)
      .optional()
      .describe('Target unit, e.g. "Nm", "rpm", "sec/60deg"'),
    compare_with: Notation.optional().describe('A second notation to compare with'),
  }),
  outputSchema: z.object({
    parsed: ParsedParameterSchema,
    conversion: Conversion.nullable().describe('null without `to`; ok=false when impossible'),
    comparison: Comparison.nullable().describe('null without compare_with'),
  }),
  annotations: READ_ONLY,
  rest: [{ method: 'GET', path: '/api/parameters/convert', summary: 'Read a vendor parameter notation; convert it exactly or compare it with another' }],
  handler: async ({ value, to, compare_with }) => {
    let conversion: z.infer<typeof Conversion> | null = null;
    if (to !== undefined) {
      const { parsed: _same, ...rest } = convert(value, to); // an unknown target unit throws invalid_input naming `to`
      conversion = rest;
    }
    let comparison: z.infer<typeof Comparison> | null = null;
    if (compare_with !== undefined) {
      const { a: _same, ...rest } = compareParameters(value, compare_with);
      comparison = rest;
    }
    return { parsed: parseParameter(value), conversion, comparison };
  },
  text: (o) => {
    const p = o.parsed;
    const parts = [
      p.recognized
        ? `"${p.input}": ${p.quantity}, dialect ${p.dialect}, level ${p.comparability.level}` +
          (p.conversion ? `; ${p.conversion.computation} ${p.si?.unit ?? ''}`.trimEnd() : '')
        : `"${p.input}": not read exactly (${p.dialect})`,
    ];
    if (o.conversion) parts.push(o.conversion.ok ? `-> ${o.conversion.text} (${o.conversion.formulas.join('; ') || 'same unit'})` : `not converted: ${o.conversion.message}`);
    if (o.comparison) parts.push(`vs "${o.comparison.b.input}": level ${o.comparison.level}, ${o.comparison.reason}` + (o.comparison.ordering_note ? `. ${o.comparison.ordering_note}` : ''));
    return parts.join('\n');
  },
});
