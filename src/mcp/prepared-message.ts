/**
 * The JSON of a tools/call answer's message, from what the tool's text block was built of.
 *
 * Every successful tool result carries its whole structured answer twice: as structuredContent,
 * and as the compact JSON after the text block's summary line (src/tools/text.ts). The transport
 * writes the message with JSON.stringify, which serialises structuredContent again and escapes
 * the text block's JSON (a quote every few characters): for a search answer that was most of the
 * cost of sending it. Both are known already: structuredContent's JSON is the text block after its
 * summary line, and the text's escaped form is joined from escaped pieces prepared once per
 * record, hit summary and listing page (src/wire/prepared.ts). messageJson(message) is
 * JSON.stringify(message), byte for byte, from them. sseEventBytes gives the SSE event the SDK's
 * writer would write, as UTF-8 bytes copied from bytes prepared once (the escaped pieces', and the
 * REST answer's for structuredContent: stringifyOutput): encoding a text with CJK names (a
 * two-byte string) as UTF-8 on every call cost more than serialising it.
 *
 * How a result is known: the tools/call handler notes what it built for the request it answers
 * (noteToolText, keyed by the request's context object), and the server's handler wrapper adopts
 * the result the SDK validated (a copy of the handler's) once it has checked that the copy holds
 * the same text and the same structured members (adoptToolResult). Anything else (another
 * message, a result the checks do not recognise, an object with toJSON) is JSON.stringify's.
 */
import type { TextParts } from '../tools/text.js';
import { outputEscaped, outputEscapedPieces, stringifyOutput, writeAll } from '../wire/prepared.js';

interface Prepared extends TextParts {
  /** The tool's output: the result's structuredContent must hold the same members, in the same order. */
  output: Record<string, unknown>;
  /** The text escaped as JSON writes it inside a string (made when first written). */
  escaped?: string;
}

/** Noted for a request being answered (removed when its answer is adopted or has failed: forgetNoted). */
const noted = new Map<object, Prepared>();
const adopted = new WeakMap<object, Prepared>();

function plain(v: unknown): v is Record<string, unknown> {
  if (v === null || typeof v !== 'object' || Array.isArray(v)) return false;
  const proto = Object.getPrototypeOf(v);
  return (proto === Object.prototype || proto === null) && typeof (v as { toJSON?: unknown }).toJSON !== 'function';
}

/** The handler of `ctx`'s request built this text block (outputJson(output, prefix) after its summary line) for this output. */
export function noteToolText(ctx: object, text: TextParts, output: Record<string, unknown>): void {
  noted.set(ctx, { text: text.text, prefix: text.prefix, output });
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
  if (!plain(result) || !plain(result.structuredContent) || !plain(p.output) || !sameMembers(result.structuredContent, p.output)) return;
  const content = result.content;
  if (!Array.isArray(content) || !plain(content[0]) || content[0].type !== 'text' || content[0].text !== p.text) return;
  adopted.set(result, p);
}

/** Whether messageJson joins this result's JSON from its prepared parts (tests). */
export function isPreparedResult(result: object): boolean {
  return adopted.has(result);
}

function preparedOf(message: unknown): Prepared | undefined {
  const result = plain(message) ? message.result : undefined;
  return result !== null && typeof result === 'object' ? adopted.get(result) : undefined;
}

type Piece = string | Buffer;

/** JSON.stringify(message), byte for byte. */
export function messageJson(message: unknown): string {
  const p = preparedOf(message);
  if (p === undefined) return JSON.stringify(message);
  const out: Piece[] = [];
  messagePieces(out, message as Record<string, unknown>, p, false);
  return out.join('');
}

/**
 * The SSE event the SDK's transport writes for `message` (`event: message`, the event id when
 * there is one, `data: <JSON>`, a blank line), as UTF-8 bytes, when the message's JSON is
 * prepared; null otherwise (the transport then writes it as before).
 */
export function sseEventBytes(message: unknown, eventId?: string): Buffer | null {
  const p = preparedOf(message);
  if (p === undefined) return null;
  const out: Piece[] = [`event: message\n${eventId ? `id: ${eventId}\n` : ''}data: `];
  messagePieces(out, message as Record<string, unknown>, p, true);
  out.push('\n\n');
  return writeAll(out);
}

/** How a member's JSON is written when it is known (null: JSON.stringify of the value). */
type Own = (k: string, v: unknown) => ((out: Piece[]) => void) | null;

/** `{...}` of an object's members as JSON.stringify writes them (`own` writes those it knows). */
function members(out: Piece[], o: Record<string, unknown>, own: Own): void {
  out.push('{');
  let first = true;
  for (const k of Object.keys(o)) {
    const v = o[k];
    const write = own(k, v);
    if (write !== null) {
      out.push(`${first ? '' : ','}${JSON.stringify(k)}:`);
      write(out);
      first = false;
      continue;
    }
    const json = JSON.stringify(v);
    if (json === undefined) continue;
    out.push(`${first ? '' : ','}${JSON.stringify(k)}:${json}`);
    first = false;
  }
  out.push('}');
}

/** `bytes`: the pieces prepared once come as their UTF-8 bytes (sseEventBytes); else all are strings (messageJson). */
function messagePieces(out: Piece[], message: Record<string, unknown>, p: Prepared, bytes: boolean): void {
  members(out, message, (k, v) => (k === 'result' ? (o) => resultPieces(o, v as Record<string, unknown>, p, bytes) : null));
}

function resultPieces(out: Piece[], result: Record<string, unknown>, p: Prepared, bytes: boolean): void {
  members(out, result, (k, v) => {
    // Its members are the output's (adoptToolResult): the same JSON, the text block after its
    // summary line, and as bytes the REST answer's (joined from bytes prepared once per record).
    if (k === 'structuredContent') return (o) => o.push(bytes ? stringifyOutput(p.output) : p.text.slice(p.prefix.length));
    if (k === 'content') return (o) => contentPieces(o, v as unknown[], p, bytes);
    return null;
  });
}

function contentPieces(out: Piece[], content: unknown[], p: Prepared, bytes: boolean): void {
  out.push('[');
  for (let i = 0; i < content.length; i++) {
    if (i) out.push(',');
    const b = content[i];
    const keys = i === 0 ? Object.keys(b as object) : null;
    // The text block as `{"type":"text","text":"..."}` when those are its members; else as it is.
    if (keys !== null && keys.length === 2 && keys[0] === 'type' && keys[1] === 'text') {
      out.push('{"type":"text","text":"');
      if (bytes) for (const x of outputEscapedPieces(p.output, p.prefix)) out.push(x);
      else out.push((p.escaped ??= outputEscaped(p.output, p.prefix)));
      out.push('"}');
    } else out.push(JSON.stringify(b) ?? 'null');
  }
  out.push(']');
}
