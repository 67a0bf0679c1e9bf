import { createHash } from 'node:crypto';
import { z } from 'zod';
import { BomDocument, BomExportRequest, catalogueIds, isCostedExport, parseBomExportRequest, partReferencePrices, validateCustomItems } from '../domain/bom/index.js';
import { POOL_MIN_BOM_ITEMS } from '../jobs/types.js';
import { jobCaller } from './run.js';
import { requireAccount } from './access.js';
import { defineTool } from './define.js';
import { ApiKey } from './schemas.js';

export const BOM_EXPORT_COST = 1;
/**
 * MCP, an export linked as a document (its answer would be over the server's inline limit): the
 * answer's lists (items, print_suggestions, reference_prices, suggested_lines) keep this many
 * entries each; the whole document is the resource the answer links (issue 40: 500 lines were
 * ~334,000 characters of text plus as much structured, 1,062,081 for 500 catalogue parts).
 */
export const EXPORT_PREVIEW_ENTRIES = 20;

const ExportOutput = BomDocument.extend({
  format: z.enum(['csv', 'json']),
  csv: z
    .string()
    .nullable()
    .describe('null: json, or linked'),
  document_uri: z
    .string()
    .nullable()
    .describe('MCP, large: whole export (1 h); lists: first 20'),
  billing: z
    .object({ credits_charged: z.number().int(), credits_remaining: z.number().int() }),
});
type ExportOutput = z.infer<typeof ExportOutput>;

/** Stable digest of the request (without the key): the ledger reference, so an Idempotency-Key cannot be reused for another BOM. */
function requestDigest(req: unknown): string {
  return createHash('sha256').update(JSON.stringify(req)).digest('hex').slice(0, 32);
}

/** The BOM document of an answer (REST's JSON body, MCP's linked JSON export). */
function documentOf(o: ExportOutput | Omit<ExportOutput, 'billing'>): BomDocument {
  return { metadata: o.metadata, items: o.items, print_suggestions: o.print_suggestions, reference_prices: o.reference_prices, suggested_lines: o.suggested_lines };
}

/** "total 12.5 USD", "totals 12.5 USD; 99 CNY (never added up)", or that no line has a price. */
function totalsText(m: BomDocument['metadata']): string {
  const g = m.totals_by_currency;
  if (g.length === 0) return 'no line has a price: no total, not charged as a costed export';
  const one = (t: (typeof g)[number]) => `${t.total_text} ${t.currency ?? '(currency not stated)'}`;
  return g.length === 1 ? `total ${one(g[0])}` : `totals ${g.map(one).join('; ')} (per currency, never added up)`;
}

export const exportBomTool = defineTool({
  name: 'export_bom',
  access: { key: 'required', charged: true },
  title: 'Export a bill of materials',
  description:
    `BOM as CSV (default) or JSON: exact line costs, totals per currency (never mixed), supplier and 3D-print suggestions. ` +
    `${BOM_EXPORT_COST} credit if a line is priced (else 0), on success; an Idempotency-Key (header, _meta.idempotencyKey) makes retries free. ` +
    '≤500 items; unpriced lines and reference prices: not in totals.',
  inputSchema: BomExportRequest.extend({ api_key: ApiKey.optional() }),
  outputSchema: ExportOutput,
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false, openWorldHint: false },
  rest: [
    {
      method: 'POST',
      path: '/api/bom/export',
      summary: 'BOM export (CSV or JSON), 1 credit',
      produces: [
        { contentType: 'text/csv', schema: z.string(), description: 'format csv (the default): the BOM as CSV, sent as the attachment bom.csv' },
        { contentType: 'application/json', schema: BomDocument, description: 'format json: the BOM document {metadata, items, print_suggestions}' },
      ],
      render: (o) => {
        const out = o as ExportOutput;
        if (out.format === 'csv') {
          return {
            contentType: 'text/csv; charset=utf-8',
            headers: { 'Content-Disposition': 'attachment; filename="bom.csv"' },
            body: out.csv ?? '',
          };
        }
        return { body: JSON.stringify(documentOf(out)) };
      },
    },
  ],
  handler: async (input, ctx) => {
    const { api_key: _key, ...raw } = input;
    const req = parseBomExportRequest(raw); // 413 beyond 500 items, before any charge
    validateCustomItems(req.items, ctx.deps.knowledge);
    const { account } = await requireAccount(ctx, input);
    // An export with no priced line is not a costed export: 0 credits (usage recorded, no ledger entry).
    const costed = isCostedExport(req);
    const charged = await ctx.deps.accounts.charge({
      account,
      cost: costed ? BOM_EXPORT_COST : 0,
      reason: costed ? 'bom.export' : 'bom.export.unpriced',
      reference: `bom:${requestDigest(req)}`,
      idempotencyKey: ctx.idempotencyKey,
      run: async () => {
        const records = await ctx.deps.catalogue.getMany(catalogueIds(req.items));
        const references = records.map((r) => [r.id.toLowerCase(), partReferencePrices(ctx.deps.ossLayer, r)] as [string, ReturnType<typeof partReferencePrices>]);
        // Large exports in the worker pool (src/jobs/jobs.ts builds the same document there).
        return (await ctx.deps.jobs.run('export_bom', { req, records, now: ctx.deps.clock().toISOString(), references }, {
          label: 'export_bom',
          inline: req.items.length < POOL_MIN_BOM_ITEMS,
          ...(req.items.length < POOL_MIN_BOM_ITEMS ? {} : jobCaller(ctx)),
          // Best effort: a notification the client can no longer receive (it went away) must neither
          // fail the export nor escape as an unhandled rejection, which would end the process.
          onProgress: (done, total, message) =>
            void ctx.progress(done, total, message).catch((err: unknown) =>
              ctx.deps.log.debug('progress notification not delivered', { tool: 'export_bom', error: err instanceof Error ? err.message : String(err) }),
            ),
        })) as Omit<ExportOutput, 'billing'>;
      },
    });
    ctx.setHeader('X-Credits-Remaining', String(charged.credits_remaining));
    ctx.setHeader('X-API-Tier', 'credits');
    if (charged.replayed) ctx.setHeader('Idempotent-Replayed', 'true');
    return { ...charged.result, document_uri: charged.result.document_uri ?? null, billing: { credits_charged: charged.reported.charged, credits_remaining: charged.reported.credits_remaining } };
  },
  text: (o) => {
    const unpriced = o.metadata.unpriced_lines;
    return (
      `BOM ${o.metadata.project_name ?? ''}: ${o.metadata.total_items} lines, ${totalsText(o.metadata)}` +
      `${o.metadata.total_is_partial && o.metadata.priced_lines > 0 ? ` (partial: ${unpriced.length > 10 ? `${unpriced.length} lines` : `lines ${unpriced.join(', ')}`} unpriced)` : ''}; ${o.billing.credits_charged} credit${o.billing.credits_charged === 1 ? '' : 's'} charged, ${o.billing.credits_remaining} left.` +
      (o.document_uri ? ` Whole ${o.format.toUpperCase()} export: ${o.document_uri} (resources/read; first ${o.items.length} lines shown).` : '') +
      (o.suggested_lines.length ? ` Suggested (unpriced, not in the total): ${o.suggested_lines.map((s) => s.name).join('; ')}.` : '')
    );
  },
  artifact: {
    document: (o) =>
      o.format === 'csv'
        ? o.csv === null ? null : { name: 'bom.csv', mimeType: 'text/csv', text: o.csv }
        : { name: 'bom.json', mimeType: 'application/json', text: JSON.stringify(documentOf(o)) },
    link: (o, uri) => {
      const first = <T>(xs: T[]) => xs.slice(0, EXPORT_PREVIEW_ENTRIES);
      return { ...o, items: first(o.items), print_suggestions: first(o.print_suggestions), reference_prices: first(o.reference_prices), suggested_lines: first(o.suggested_lines), csv: null, document_uri: uri };
    },
  },
});
