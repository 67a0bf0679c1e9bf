/**
 * Robot description packages: the files of an upload (`files: [{path, content}]` or an archive),
 * checked against the limits, the ROS packages they hold (package.xml <name> -> folder), and the
 * description loaded from them: the entry parsed and, when it is xacro, expanded with includes,
 * $(find pkg), args and YAML from the upload. Pure (archives are read in archive.ts).
 */
import { DomainError, invalidInput } from '../../domain/shared/errors.js';
import { MAX_INPUT_BYTES, parseXmlInput } from './limits.js';
import type { PackageInfo } from './types.js';
import { expandXacroDocument, isXacroDocument, resolveUploadPath, XacroError, XACRO_LIMITS, type XacroExpansion } from './xacro.js';
import { childElements, elementText, parseXml, walk, XmlError, type XmlElement } from './xml.js';

/** Limits of a package upload (README limits table); the text of all files together is at most MAX_INPUT_BYTES. */
export const PACKAGE_LIMITS = {
  max_package_files: 1000,
  max_path_chars: 512,
  max_path_depth: 16,
} as const;

export interface UploadFile {
  path: string;
  content: string;
}

export interface DescriptionInput {
  content?: string;
  files?: UploadFile[];
  entry?: string;
  args?: Record<string, string>;
}

/** A file of the input that is not well-formed XML (the linter reports it as a finding; the extractor refuses). */
export class MalformedXml extends Error {
  constructor(
    readonly xml: XmlError,
    readonly file: string | undefined,
    readonly field: string,
  ) {
    super(xml.message);
  }
}

export interface LoadedDescription {
  root: XmlElement;
  xacro: XacroExpansion | null;
  package: PackageInfo | null;
  /** Whether records and findings name the file of each element (packages). */
  withFiles: boolean;
}

/** One upload path, normalised ('/'-separated, no '.' segments); refused when absolute, escaping, too long or too deep. */
export function normalisePath(raw: string, field: string): string {
  const p = raw.replace(/\\/g, '/');
  if (p.length > PACKAGE_LIMITS.max_path_chars) throw invalidInput(field, `path "${raw.slice(0, 80)}…" is longer than ${PACKAGE_LIMITS.max_path_chars} characters (limit max_path_chars)`);
  if (p.startsWith('/') || /^[A-Za-z]:/.test(p)) throw new DomainError('invalid_input', `${field}: path "${raw}" is absolute; paths are relative to the package upload`, { field, path: raw });
  const resolved = resolveUploadPath(p, '');
  if (resolved === null || p.split('/').includes('..')) throw new DomainError('invalid_input', `${field}: path "${raw}" escapes the upload ("..")`, { field, path: raw });
  if (resolved === '') throw invalidInput(field, `path "${raw}" names no file`);
  if (resolved.split('/').length > PACKAGE_LIMITS.max_path_depth) throw new DomainError('invalid_input', `${field}: path "${raw}" is deeper than ${PACKAGE_LIMITS.max_path_depth} folders (limit max_path_depth)`, { field, path: raw, limit: 'max_path_depth' });
  return resolved;
}

/** The upload as path -> text, every limit checked: file count, path rules, duplicates, total size. */
export function normaliseUpload(files: readonly UploadFile[], field = 'files'): Map<string, string> {
  if (files.length === 0) throw invalidInput(field, 'is empty; send at least the entry file');
  if (files.length > PACKAGE_LIMITS.max_package_files) {
    throw new DomainError('invalid_input', `${field}: ${files.length} files; at most ${PACKAGE_LIMITS.max_package_files} (limit max_package_files)`, { field, limit: 'max_package_files', limit_value: PACKAGE_LIMITS.max_package_files });
  }
  const out = new Map<string, string>();
  let bytes = 0;
  for (const [i, f] of files.entries()) {
    const path = normalisePath(f.path, `${field}[${i}].path`);
    if (out.has(path)) throw new DomainError('invalid_input', `${field}[${i}].path: "${f.path}" is sent twice`, { field: `${field}[${i}].path`, path: f.path });
    bytes += f.content.length * 3 <= MAX_INPUT_BYTES ? f.content.length : Buffer.byteLength(f.content, 'utf8');
    if (bytes > MAX_INPUT_BYTES) {
      const total = files.reduce((s, x) => s + Buffer.byteLength(x.content, 'utf8'), 0);
      if (total > MAX_INPUT_BYTES) {
        throw new DomainError('payload_too_large', `${field}: the files hold ${total} bytes of UTF-8 together; at most ${MAX_INPUT_BYTES} bytes (2 MiB), the same limit as content`, { field, size_bytes: total, limit_bytes: MAX_INPUT_BYTES });
      }
    }
    out.set(path, f.content.charCodeAt(0) === 0xfeff ? f.content.slice(1) : f.content);
  }
  return out;
}

const dirOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

/**
 * ROS packages of the upload: each package.xml's <name> -> its folder (`declared`); then each
 * folder's own name when no package.xml names it.
 */
export function findPackages(files: ReadonlyMap<string, string>): { byName: Map<string, string>; declared: Set<string> } {
  const byName = new Map<string, string>();
  for (const [path, text] of files) {
    if (path !== 'package.xml' && !path.endsWith('/package.xml')) continue;
    let root: XmlElement;
    try {
      root = parseXml(text);
    } catch {
      continue; // a broken package.xml names nothing; the folder name still resolves below
    }
    const name = root.name === 'package' ? elementText(childElements(root, 'name')[0] ?? root).trim() : '';
    if (name !== '' && !byName.has(name)) byName.set(name, dirOf(path));
  }
  const declared = new Set(byName.keys());
  // Folder names, shallowest first, for packages without a package.xml.
  const folders = new Set<string>();
  for (const path of files.keys()) {
    const parts = path.split('/');
    for (let k = 1; k < parts.length; k++) folders.add(parts.slice(0, k).join('/'));
  }
  for (const f of [...folders].sort((a, b) => a.split('/').length - b.split('/').length || a.localeCompare(b))) {
    const name = f.slice(f.lastIndexOf('/') + 1);
    if (!byName.has(name)) byName.set(name, f);
  }
  return { byName, declared };
}

/** The package of a file: the deepest package folder holding it. */
function packageOf(path: string, packages: ReadonlyMap<string, string>, declared: ReadonlySet<string>): string | null {
  let best: { name: string; depth: number } | null = null;
  for (const [name, folder] of packages) {
    if (!declared.has(name)) continue;
    if (folder === '' || path.startsWith(`${folder}/`)) {
      const depth = folder === '' ? 0 : folder.split('/').length;
      if (!best || depth > best.depth) best = { name, depth };
    }
  }
  return best?.name ?? null;
}

/** Meshes and textures the description names, each once, with the upload path they resolve to. */
function referencedFiles(root: XmlElement, files: ReadonlyMap<string, string> | null, packages: ReadonlyMap<string, string>): PackageInfo['referenced_files'] {
  const seen = new Map<string, PackageInfo['referenced_files'][number]>();
  for (const { el } of walk(root)) {
    const uri = el.name === 'mesh' ? el.attrs.get('filename') : el.name === 'texture' ? el.attrs.get('filename') : undefined;
    if (!uri || seen.has(uri)) continue;
    let path: string | null = null;
    if (uri.startsWith('package://')) {
      const [pkg, ...rest] = uri.slice(10).split('/');
      const folder = packages.get(pkg);
      path = folder === undefined ? null : resolveUploadPath(rest.join('/'), folder);
    } else if (uri.startsWith('/')) path = resolveUploadPath(uri, '');
    else if (!/^[a-z]+:\/\//.test(uri) && el.file !== undefined) path = resolveUploadPath(uri, dirOf(el.file));
    seen.set(uri, { uri, path, present: path !== null && files !== null && files.has(path) });
  }
  return [...seen.values()];
}

function xacroRefusal(err: XacroError, field: string): DomainError {
  const at = err.where.file !== undefined ? `${err.where.file}${err.where.line !== undefined ? ` line ${err.where.line}` : ''}: ` : err.where.line !== undefined ? `line ${err.where.line}: ` : '';
  return new DomainError('invalid_input', `${field}: xacro not expanded: ${at}${err.message}`, {
    field,
    missing: err.missing,
    ...(err.limit ? { limit: err.limit, limit_value: XACRO_LIMITS[err.limit] } : {}),
    ...(err.where.file !== undefined ? { file: err.where.file } : {}),
    ...(err.where.line !== undefined ? { line: err.where.line, column: err.where.column } : {}),
  });
}

/**
 * The robot description of an input: `content` (one URDF or single-file xacro) or `files` +
 * `entry` (+ `args`), parsed and expanded. Malformed XML throws MalformedXml; an XML or xacro
 * limit, a missing include, package, argument or property throws invalid_input naming it.
 */
export function loadDescription(input: DescriptionInput, field = 'content'): LoadedDescription {
  if (input.files === undefined) {
    const text = input.content ?? '';
    let doc: XmlElement;
    try {
      doc = parseXml(text);
    } catch (err) {
      if (err instanceof XmlError && !err.limit) throw new MalformedXml(err, undefined, field);
      return parseXmlInput(text, field) as never; // rethrows the limit as invalid_input
    }
    if (input.args && Object.keys(input.args).length > 0 && !isXacroDocument(doc)) throw invalidInput('args', 'given, but the content is not xacro');
    if (!isXacroDocument(doc)) return { root: doc, xacro: null, package: null, withFiles: false };
    try {
      const x = expandXacroDocument(doc, { args: input.args });
      return { root: x.root, xacro: x, package: null, withFiles: false };
    } catch (err) {
      if (err instanceof XacroError) throw xacroRefusal(err, field);
      throw err;
    }
  }
  const files = normaliseUpload(input.files, 'files');
  if (input.entry === undefined) throw invalidInput('entry', `is required with files: the path of the top file (one of ${[...files.keys()].filter((p) => /\.(xacro|urdf)$/.test(p)).slice(0, 5).join(', ') || 'the files'})`);
  let entry = normalisePath(input.entry, 'entry');
  if (!files.has(entry)) {
    // An archive with one top folder: the entry may be given relative to it.
    const tops = new Set([...files.keys()].map((p) => p.split('/')[0]));
    const inTop = tops.size === 1 ? `${[...tops][0]}/${entry}` : null;
    if (inTop !== null && files.has(inTop)) entry = inTop;
    else throw new DomainError('invalid_input', `entry: "${input.entry}" is not one of the files sent`, { field: 'entry', missing: [`entry file ${input.entry}`] });
  }
  const { byName: packages, declared } = findPackages(files);
  let doc: XmlElement;
  try {
    doc = parseXml(files.get(entry)!);
  } catch (err) {
    if (err instanceof XmlError && !err.limit) throw new MalformedXml(err, entry, 'files');
    return parseXmlInput(files.get(entry)!, 'files', {}, entry) as never;
  }
  let x: XacroExpansion | null = null;
  let root = doc;
  try {
    x = expandXacroDocument(doc, { file: entry, files, packages, args: input.args });
    root = x.root;
  } catch (err) {
    if (err instanceof XacroError) {
      if (err.xml && !err.xml.limit) throw new MalformedXml(err.xml, err.where.file, 'files');
      throw xacroRefusal(err, 'files');
    }
    throw err;
  }
  const read = new Set(x.files_read);
  const pkgName = packageOf(entry, packages, declared) ?? (entry.includes('/') ? entry.split('/')[0] : null);
  return {
    root,
    xacro: isXacroDocument(doc) ? x : null,
    package: {
      name: pkgName,
      entry,
      packages: [...packages].filter(([n]) => declared.has(n)).map(([name, folder]) => ({ name, folder })),
      files_read: x.files_read,
      files_unused: [...files.keys()].filter((p) => !read.has(p)).length,
      referenced_files: referencedFiles(root, files, packages),
    },
    withFiles: true,
  };
}
