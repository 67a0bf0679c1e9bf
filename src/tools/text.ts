/**
 * The text block of a successful tool result, built in ONE place for every tool and transport:
 * an optional one-line summary (the tool's `text`, folded to one line), then the compact JSON of
 * structuredContent. A host that forwards only text therefore loses nothing: everything after the
 * first newline parses to exactly the structured result.
 */
import { outputJson } from '../wire/prepared.js';
import type { AnyTool } from './define.js';

export const SUMMARY_MAX = 300;

/** Whitespace other than single spaces between words: what folding changes. */
const UNFOLDED = /[^\S ]| {2}|^ | $/;

/** Folds a summary to one line of at most SUMMARY_MAX characters (whitespace runs -> one space, trimmed). */
export function oneLine(summary: string): string {
  // Most summaries are one line already: tested without making two new strings per call.
  const s = UNFOLDED.test(summary) ? summary.replace(/\s+/g, ' ').trim() : summary;
  return s.length > SUMMARY_MAX ? `${s.slice(0, SUMMARY_MAX - 1)}…` : s;
}

/** "<one-line summary>\n<compact JSON>" (or the JSON alone when the tool has no summary). */
export function composeText(summary: string | undefined | null, structured: unknown): string {
  return composeBoth(summary, structured).text;
}

/** A text block and its summary line (`prefix`: the line and its line break, or ''): the JSON after it is the structured answer's own. */
export interface TextParts {
  text: string;
  prefix: string;
}

function composeBoth(summary: string | undefined | null, structured: unknown): TextParts {
  const line = summary ? oneLine(summary) : '';
  const prefix = line ? `${line}\n` : '';
  // Tool outputs are objects: their JSON reuses the prepared JSON of catalogue records (same text
  // as JSON.stringify), joined after the summary line into one flat string.
  if (structured !== null && typeof structured === 'object' && !Array.isArray(structured)) return { text: outputJson(structured as Record<string, unknown>, prefix), prefix };
  return { text: prefix + JSON.stringify(structured), prefix };
}

/** Text blocks of a cacheable tool's answers (frozen, handed out again): made once per answer and tool. */
const textOf = new WeakMap<object, { tool: AnyTool; parts: TextParts }>();

/** The text block for a tool's output. */
export function toolText(tool: AnyTool, output: Record<string, unknown>): string {
  return toolTextParts(tool, output).text;
}

/** The text block for a tool's output, with its summary line (src/mcp/prepared-message.ts builds the message's JSON from them). */
export function toolTextParts(tool: AnyTool, output: Record<string, unknown>): TextParts {
  const keep = tool.cacheable === true && Object.isFrozen(output);
  const known = keep ? textOf.get(output) : undefined;
  if (known !== undefined && known.tool === tool) return known.parts;
  const parts = composeBoth(tool.text ? tool.text(output) : null, output);
  if (keep) textOf.set(output, { tool, parts });
  return parts;
}

/**
 * The structured result carried by a text block built by composeText (inverse, for clients, tests
 * and the replay of a dropped SSE stream): compact JSON holds no line break, so the JSON is the
 * whole text when it has none, else what follows the first (the summary is one line).
 */
export function structuredFromText(text: string): unknown {
  const nl = text.indexOf('\n');
  return JSON.parse(nl < 0 ? text : text.slice(nl + 1));
}
