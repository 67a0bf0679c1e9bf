/**
 * Names a URDF gives to the parts it draws: mesh files and materials used inside each <link>'s
 * <visual> / <collision>, with the links that use them. Where-used matches part names and model
 * numbers against these ("sts3215_03a_v1.stl" on the SO-101 motor links). Values as written
 * (mesh file: its base name). Pure; linear in the input.
 */
import { z } from 'zod';
import { scanTags, type ScanProblem } from './xml.js';

export const UrdfMention = z
  .object({
    kind: z.enum(['mesh', 'material']),
    name: z.string().describe('Mesh file base name or material name, as written'),
    links: z.array(z.string()).describe('Links whose <visual> or <collision> uses it, in file order, each once'),
  })
  .strict();
export type UrdfMention = z.infer<typeof UrdfMention>;

export function urdfMentions(text: string): UrdfMention[] {
  const problems: ScanProblem[] = [];
  const byKey = new Map<string, UrdfMention>();
  let link: string | null = null;
  let geometryDepth = 0;
  for (const tag of scanTags(text, problems)) {
    if (tag.name === 'link') {
      if (tag.kind === 'start' && !tag.selfClosing) link = tag.attrs.get('name')?.trim() || null;
      else if (tag.kind === 'end') link = null;
      continue;
    }
    if (tag.name === 'visual' || tag.name === 'collision') {
      if (tag.kind === 'start' && !tag.selfClosing) geometryDepth += 1;
      else if (tag.kind === 'end' && geometryDepth > 0) geometryDepth -= 1;
      continue;
    }
    if (tag.kind !== 'start' || link === null || geometryDepth === 0) continue;
    let kind: UrdfMention['kind'] | null = null;
    let name: string | null = null;
    if (tag.name === 'mesh') {
      kind = 'mesh';
      const f = tag.attrs.get('filename')?.trim();
      name = f ? (f.split(/[\\/]/).pop() ?? null) : null;
    } else if (tag.name === 'material') {
      kind = 'material';
      name = tag.attrs.get('name')?.trim() || null;
    }
    if (kind === null || name === null || name === '') continue;
    const key = `${kind}\n${name}`;
    const m = byKey.get(key) ?? { kind, name, links: [] };
    if (!m.links.includes(link)) m.links.push(link);
    byKey.set(key, m);
  }
  return [...byKey.values()];
}
