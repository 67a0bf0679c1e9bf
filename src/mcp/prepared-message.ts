/**
 * The JSON of a tools/call answer's message, from what the tool's text block was built of.
 *
 * Every successful tool result carries its whole structured answer twice: as structuredContent,
 * and as the compact JSON after the text block's summary line (src/tools/text.ts). The transport
 * writes the message with JSON.stringify, which serialises structuredContent again and escapes
 * the text block's JSON (a quote every few characters): for a search answer that was most of the
 * serialisation of a call. Both are known already: structuredContent's JSON is the text block
 * after its summary line, and the text's escaped form is joined from escaped pieces prepared once
 * per record (src/wire/prepared.ts). messageJson(message) is JSON.stringify(message), byte for
 * byte, using them.
 *
 * How a result is known: the tools/call handler notes what it built for the request it answers
 * (noteToolText, keyed by the request's context object), and the server's handler wrapper adopts
 * the result the SDK validated (a copy of the handler's) once it has checked that the copy holds
 * the same text and the same structured members (adoptToolResult). Anything else (another
 * message, a result the checks do not recognise, an object with toJSON) is JSON.stringify's.
 */
import type { PreparedText } from '../tools/text.js';

interface Prepared extends PreparedText {
  /** The tool's output: the result's structuredContent must hold the same members, in the same order. */
  output: Record<string, unknown>;
}

/** Noted for a request being answered (removed when its answer is adopted or has failed: forgetNoted). */
const noted = new Map<object, Prepared>();
const adopted = new WeakMap<object, Prepared>();

function plain(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/** The handler of `ctx`'s request built this text block for this output. */
export function noteToolText(ctx: object, text: PreparedText, output: Record<string, unknown>): void {
  noted.set(ctx, { text: text.text, escaped: text.escaped, jsonAt: text.jsonAt, output });
}

/** The request of `ctx` has been answered (or has failed): what was noted for it is let go. */
export function forgetNoted(ctx: object): void {
  noted.delete(ctx);
}

/** Same members in the same order, each the same value. */
function sameMembers(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const ka = Object.keys(a);
  const kb = Object.keys(b);
  if (ka.length !== kb.length) return false;
  for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i] || a[ka[i]!] !== b[kb[i]!]) return false;
  return true;
}

/** The result answering `ctx`'s request, as the SDK validated it: its JSON is prepared when it is what the handler noted. */
export function adoptToolResult(ctx: object, result: unknown): void {
  const p = noted.get(ctx);
  if (p === undefined) return;
  if (!plain(result) || !plain(result.structuredContent) || !sameMembers(result.structuredContent, p.output)) return;
  const content = result.content;
  if (!Array.isArray(content) || !plain(content[0]) || content[0].type !== 'text' || content[0].text !== p.text) return;
  adopted.set(result, p);
}

/** JSON.stringify(message), byte for byte. */
export function messageJson(message: unknown): string {
  const result = plain(message) ? message.result : undefined;
  const p = result !== null && typeof result === 'object' ? adopted.get(result) : undefined;
  if (p === undefined) return JSON.stringify(message);
  return members(message as Record<string, unknown>, (k, v) => (k === 'result' ? resultJson(v as Record<string, unknown>, p) : undefined));
}

/** `{...}` of an object's members as JSON.stringify writes them, with `own(key, value)` where it gives a JSON text. */
function members(o: Record<string, unknown>, own: (k: string, v: unknown) => string | undefined): string {
  let out = '{';
  for (const k of Object.keys(o)) {
    const v = o[k];
    const json = own(k, v) ?? JSON.stringify(v);
    if (json === undefined) continue;
    out += `${out.length > 1 ? ',' : ''}${JSON.stringify(k)}:${json}`;
  }
  return `${out}}`;
}

function resultJson(result: Record<string, unknown>, p: Prepared): string {
  return members(result, (k, v) => {
    if (k === 'structuredContent') return p.text.slice(p.jsonAt);
    if (k === 'content') return contentJson(v as unknown[], p);
    return undefined;
  });
}

function contentJson(content: unknown[], p: Prepared): string {
  const out: string[] = [];
  for (let i = 0; i < content.length; i++) {
    const b = content[i];
    const keys = i === 0 ? Object.keys(b as object) : null;
    // The text block as `{"type":"text","text":"..."}` when those are its members; else as it is.
    if (keys !== null && keys.length === 2 && keys[0] === 'type' && keys[1] === 'text') out.push(`{"type":"text","text":"${p.escaped}"}`);
    else out.push(JSON.stringify(b) ?? 'null');
  }
  return `[${out.join(',')}]`;
}

/** Whether messageJson joins this result's JSON from its prepared parts (tests). */
export function isPreparedResult(result: object): boolean {
  return adopted.has(result);
}
