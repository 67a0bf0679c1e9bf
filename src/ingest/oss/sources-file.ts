/**
 * The open-source layer's sources file (issue 45): the robot projects an operator names, as data.
 *
 *   { sources: [{ id, name, robot, type?, repo, ref, license, license_note?,
 *                 files: [{ path, extractor: urdf | bom_md | bom_csv | readme }
 *                        | { entry, args?, extractor: "xacro" }] }] }
 *
 * `repo` is a git URL (https, ssh, git, file://) or a local path (a git work tree, or a plain
 * folder read as it is); `ref` a branch, tag or commit. Read by `robot-parts-mcp sources refresh`
 * and by `npm run data:oss` (data/oss/sources.json, the shipped sources). Adding a source is an
 * operator action: no request ever makes the server fetch a URL.
 */
import fs from 'node:fs';
import { z } from 'zod';

/** Source ids become record-id seeds and file names in messages: short, ASCII, no separators that would confuse a path. */
const SOURCE_ID = /^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$/;

export const FILE_EXTRACTORS = ['urdf', 'bom_md', 'bom_csv', 'readme'] as const;

const PlainFile = z
  .object({
    path: z.string().min(1).max(512).describe('Path of the file in the repository, "/"-separated'),
    extractor: z.enum(FILE_EXTRACTORS).describe('urdf: a URDF file; bom_md: Markdown BOM tables; bom_csv: a delimited BOM; readme: BOM tables inside a README (read as bom_md)'),
  })
  .strict();

const XacroFile = z
  .object({
    entry: z.string().min(1).max(512).describe('The xacro file to expand, a path in the repository; every text file of the repository is available to its includes and $(find)'),
    args: z.record(z.string(), z.string()).optional().describe('xacro arguments (name -> value)'),
    extractor: z.literal('xacro'),
  })
  .strict();

export const SourceFileSpec = z.union([PlainFile, XacroFile]);
export type SourceFileSpec = z.infer<typeof SourceFileSpec>;

export const SourceSpec = z
  .object({
    id: z.string().regex(SOURCE_ID, 'letters, digits, "_", "." or "-", starting with a letter or digit, at most 64 characters'),
    name: z.string().min(1).max(200),
    robot: z.string().min(1).max(200),
    type: z.string().min(1).max(40).nullable().optional().describe('humanoid, quadruped, arm, ...'),
    repo: z.string().min(1).max(1000).describe('git URL or local path'),
    ref: z.string().min(1).max(200).describe('branch, tag or commit'),
    license: z.string().min(1).max(100).describe('SPDX identifier of the files read'),
    license_note: z.string().max(500).optional(),
    files: z.array(SourceFileSpec).min(1).max(50),
  })
  .strict();
export type SourceSpec = z.infer<typeof SourceSpec>;

export const SourcesFile = z
  .object({
    $comment: z.string().optional(),
    sources: z.array(SourceSpec).max(500),
  })
  .strict()
  .superRefine((doc, ctx) => {
    const seen = new Set<string>();
    doc.sources.forEach((s, i) => {
      if (seen.has(s.id)) ctx.addIssue({ code: 'custom', path: ['sources', i, 'id'], message: `duplicate source id ${s.id}` });
      seen.add(s.id);
    });
  });
export type SourcesFile = z.infer<typeof SourcesFile>;

export class SourcesFileError extends Error {}

/** The sources file, validated; the error names the file and the first fields at fault. */
export function parseSourcesFile(text: string, file: string): SourcesFile {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (e) {
    throw new SourcesFileError(`${file}: not valid JSON: ${(e as Error).message}`);
  }
  const r = SourcesFile.safeParse(raw);
  if (!r.success) {
    const why = r.error.issues.slice(0, 5).map((i) => `${i.path.join('.') || '(top)'}: ${i.message}`).join('; ');
    throw new SourcesFileError(`${file}: ${why}`);
  }
  return r.data;
}

export function readSourcesFile(file: string): SourcesFile {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (e) {
    throw new SourcesFileError(`${file}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`);
  }
  return parseSourcesFile(text, file);
}

/** Id of one file of a source: the source's id when it has one file (the shipped layer's ids), else id/position. */
export function fileSourceId(source: SourceSpec, index: number): string {
  return source.files.length === 1 ? source.id : `${source.id}/${index + 1}`;
}

/** The path a file spec reads (a plain file's path, a xacro's entry). */
export function specPath(f: SourceFileSpec): string {
  return 'path' in f ? f.path : f.entry;
}

/** The repository's web address for a file at a commit: GitHub's blob URL when the repo is on GitHub, else repo@commit:path. */
export function fileUrlOf(repo: string, commit: string, filePath: string): string {
  const gh = /^https:\/\/github\.com\/[^/]+\/[^/]+?(?:\.git)?$/.exec(repo);
  if (gh) return `${repo.replace(/\.git$/, '')}/blob/${commit}/${filePath}`;
  return `${repo}@${commit}:${filePath}`;
}
