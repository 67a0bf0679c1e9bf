/**
 * Names a URDF gives to the parts it draws: mesh files and materials used inside each <link>'s
 * <visual> / <collision>, with the links that use them. Where-used matches part names and model
 * numbers against these ("sts3215_03a_v1.stl" on the SO-101 motor links). Values as written
 * (mesh file: its base name). Pure; linear in the input.
 */
import { z } from 'zod';
import { childElements, parseXml, walk, type XmlElement } from './xml.js';

export const UrdfMention = z
  .object({
    kind: z.enum(['mesh', 'material']),
    name: z.string().describe('Mesh file base name or material name, as written'),
    links: z.array(z.string()).describe('Links whose <visual> or <collision> uses it, in file order, each once'),
  })
  .strict();
export type UrdfMention = z.infer<typeof UrdfMention>;

export function urdfMentions(text: string): UrdfMention[] {
  let root: XmlElement;
  try {
    root = parseXml(text, { text: false });
  } catch {
    return []; // malformed: the extractor refuses the file with its line and column
  }
  const byKey = new Map<string, UrdfMention>();
  for (const link of root.name === 'robot' ? childElements(root, 'link') : []) {
    const name = link.attrs.get('name')?.trim() || null;
    if (name === null) continue;
    for (const part of childElements(link)) {
      if (part.name !== 'visual' && part.name !== 'collision') continue;
      for (const { el } of walk(part)) {
        let kind: UrdfMention['kind'] | null = null;
        let label: string | null = null;
        if (el.name === 'mesh') {
          kind = 'mesh';
          const f = el.attrs.get('filename')?.trim();
          label = f ? (f.split(/[\\/]/).pop() ?? null) : null;
        } else if (el.name === 'material') {
          kind = 'material';
          label = el.attrs.get('name')?.trim() || null;
        }
        if (kind === null || label === null || label === '') continue;
        const key = `${kind}\n${label}`;
        const m = byKey.get(key) ?? { kind, name: label, links: [] };
        if (!m.links.includes(name)) m.links.push(name);
        byKey.set(key, m);
      }
    }
  }
  return [...byKey.values()];
}
