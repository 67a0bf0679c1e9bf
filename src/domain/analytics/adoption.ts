/**
 * Adoption of catalogue components in the open-source layer: which open-source robots' bills of
 * materials name a component, and the quantities those lines state.
 *
 * Matching rule (stated in the document): a record's model tokens are the words of its name and
 * English name (split on anything not a letter or digit, lower-cased) that have at least four
 * characters and contain both a letter and a digit, minus unit-like words ("48v", "100w",
 * "275tops"). A BOM line names the record when one of those tokens is a word of the line's item
 * name or manufacturer part number. Brand names alone never match (too many products share them).
 */

export interface BomLine {
  /** Open-source-layer record id (OSS-LIVE-...). */
  id: string;
  /** Robot the BOM belongs to (source_robot). */
  robot: string;
  item: string;
  manufacturer_part: string | null;
  /** Quantity as an integer when the line states one. */
  quantity: number | null;
}

export interface Adoption {
  robots: string[];
  quantity: number;
  /** Lines without a readable quantity (counted as lines, not in quantity). */
  quantity_unstated: number;
  lines: string[];
  tokens: string[];
}

const UNIT_LIKE = /^\d+(?:\.\d+)?(?:v|w|kw|mw|mm|cm|nm|kg|g|ah|mah|hz|khz|mhz|ghz|tops|bit|bits|gb|mb|tb|rpm|w)$/;

export function words(text: string | null | undefined): string[] {
  return (text ?? '')
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter((w) => w !== '');
}

export function modelTokens(e: { name: string; name_en: string }): string[] {
  const out = new Set<string>();
  for (const w of [...words(e.name), ...words(e.name_en)]) {
    if (w.length >= 4 && /\p{L}/u.test(w) && /\p{N}/u.test(w) && !UNIT_LIKE.test(w)) out.add(w);
  }
  return [...out].sort();
}

/** Adoption per record id, for records of the given kinds; records no line names get robots []. */
export function adoptionIndex(
  entities: readonly { id: string; name: string; name_en: string; entity_kind: string }[],
  lines: readonly BomLine[],
  kinds: readonly string[],
): Map<string, Adoption> {
  // word -> indexes of the lines containing it (each line once per word)
  const byWord = new Map<string, number[]>();
  lines.forEach((l, i) => {
    for (const w of new Set([...words(l.item), ...words(l.manufacturer_part)])) {
      const list = byWord.get(w);
      if (list) list.push(i);
      else byWord.set(w, [i]);
    }
  });
  const out = new Map<string, Adoption>();
  for (const e of entities) {
    if (!kinds.includes(e.entity_kind)) continue;
    const tokens = modelTokens(e);
    const idx = new Set(tokens.flatMap((t) => byWord.get(t) ?? []));
    const hits = [...idx].sort((x, y) => x - y).map((i) => lines[i]!);
    out.set(e.id, {
      robots: [...new Set(hits.map((h) => h.robot))].sort(),
      quantity: hits.reduce((a, h) => a + (h.quantity ?? 0), 0),
      quantity_unstated: hits.filter((h) => h.quantity === null).length,
      lines: hits.map((h) => h.id).sort(),
      tokens,
    });
  }
  return out;
}
