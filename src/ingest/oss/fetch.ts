/**
 * Reading a source's files for `sources refresh` (issue 45): from a git repository (any URL git
 * fetches, file:// and local paths included) at a branch, tag or commit, or from a plain local
 * folder. Bounded: a wall-time limit on every git command, a byte limit per file and in all, and
 * a file-count limit for xacro packages. Files are read out of the fetched commit (`git show`,
 * `git ls-tree`): nothing is checked out, no hook runs, no credential prompt waits.
 *
 * The mirror fetcher reads the local copies in ../shared/robots instead (their README maps each
 * copy to its repository, path and commit): how data/oss is built where no network reaches.
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { parseRobotsReadme } from './robots-readme.js';
import { specPath, type SourceSpec } from './sources-file.js';

const run = promisify(execFile);

export interface FetchedSource {
  /** The commit read (40 hex), or for a plain folder "folder" (no history to name). */
  commit: string;
  /** Repository path -> bytes, for every file the source's specs need (xacro: every text file of the repository within the limits). */
  files: Map<string, Uint8Array>;
}

export interface FetchLimits {
  /** Wall time of one git command, ms. */
  timeMs: number;
  /** Bytes of one file. */
  fileBytes: number;
  /** Bytes of all files read for one source. */
  totalBytes: number;
  /** Text files read for a xacro package. */
  packageFiles: number;
}

export const DEFAULT_FETCH_LIMITS: FetchLimits = { timeMs: 120_000, fileBytes: 8 * 1024 * 1024, totalBytes: 32 * 1024 * 1024, packageFiles: 1000 };

export type SourceFetcher = (source: SourceSpec) => Promise<FetchedSource>;

export class FetchError extends Error {}

/** Files a xacro package may include or load: descriptions, macros, YAML and package manifests. */
const PACKAGE_TEXT = /\.(xacro|urdf|xml|yaml|yml|gazebo|transmission|trans)$/i;

function needsPackage(source: SourceSpec): boolean {
  return source.files.some((f) => f.extractor === 'xacro');
}

function isUrl(repo: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(repo) || /^[^/\s]+@[^:\s]+:/.test(repo);
}

/** git with no prompts, hooks, system or global configuration, and only ordinary transports. */
async function git(args: string[], cwd: string, limits: FetchLimits, maxBuffer = 1024 * 1024): Promise<Buffer> {
  try {
    const { stdout } = await run('git', ['-c', 'core.hooksPath=/dev/null', '-c', 'protocol.file.allow=always', ...args], {
      cwd,
      timeout: limits.timeMs,
      killSignal: 'SIGKILL',
      maxBuffer,
      encoding: 'buffer',
      env: {
        PATH: process.env.PATH ?? '/usr/bin:/bin',
        HOME: os.tmpdir(),
        GIT_TERMINAL_PROMPT: '0',
        GIT_CONFIG_NOSYSTEM: '1',
        GIT_CONFIG_GLOBAL: '/dev/null',
        GIT_ALLOW_PROTOCOL: 'file:git:http:https:ssh',
        GIT_ASKPASS: 'true',
        SSH_ASKPASS: 'true',
      },
    });
    return stdout;
  } catch (e) {
    const err = e as NodeJS.ErrnoException & { killed?: boolean; stderr?: Buffer; code?: string | number };
    if (err.killed) throw new FetchError(`git ${args[0]} took longer than ${limits.timeMs} ms (limit timeMs)`);
    if (err.code === 'ERR_CHILD_PROCESS_STDIO_MAXBUFFER') throw new FetchError(`git ${args[0]}: output over ${maxBuffer} bytes (limit fileBytes)`);
    const msg = (err.stderr ? err.stderr.toString('utf8') : err.message).trim().split('\n').slice(-2).join(' ').slice(0, 300);
    throw new FetchError(`git ${args[0]} failed: ${msg}`);
  }
}

/** Fetches one commit of a repository (shallow) into a temporary bare repository and reads the files the source names. */
async function fetchGit(source: SourceSpec, limits: FetchLimits): Promise<FetchedSource> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'rpm-source-'));
  try {
    await git(['init', '-q', '--bare'], dir, limits);
    const repo = isUrl(source.repo) ? source.repo : `file://${path.resolve(source.repo)}`;
    try {
      await git(['fetch', '-q', '--depth', '1', '--no-tags', repo, source.ref], dir, limits);
    } catch (e) {
      // A commit that is not a branch or tag tip: servers that refuse a shallow fetch by id get a full fetch.
      if (!/^[0-9a-f]{7,40}$/i.test(source.ref)) throw e;
      await git(['fetch', '-q', '--no-tags', repo, '+refs/heads/*:refs/remotes/origin/*'], dir, limits);
      await git(['update-ref', 'FETCH_HEAD', source.ref], dir, limits).catch(() => {
        throw new FetchError(`ref ${source.ref} is not in ${source.repo}`);
      });
    }
    const commit = (await git(['rev-parse', 'FETCH_HEAD^{commit}'], dir, limits)).toString('utf8').trim();
    const files = new Map<string, Uint8Array>();
    let total = 0;
    const take = (p: string, bytes: Uint8Array) => {
      total += bytes.length;
      if (total > limits.totalBytes) throw new FetchError(`the files of source ${source.id} are over ${limits.totalBytes} bytes (limit totalBytes)`);
      files.set(p, bytes);
    };
    const show = async (p: string): Promise<Uint8Array> => {
      try {
        return await git(['show', `${commit}:${p}`], dir, limits, limits.fileBytes + 1);
      } catch (e) {
        if (e instanceof FetchError && /limit fileBytes/.test(e.message)) throw new FetchError(`${p} is over ${limits.fileBytes} bytes (limit fileBytes)`);
        throw new FetchError(`${p} is not in ${source.repo} at ${commit.slice(0, 12)}`);
      }
    };
    if (needsPackage(source)) {
      const listing = (await git(['ls-tree', '-r', '-l', '-z', commit], dir, limits, 64 * 1024 * 1024)).toString('utf8').split('\0');
      const texts = listing
        .map((l) => /^\d+ blob [0-9a-f]+\s+(\d+)\t(.*)$/s.exec(l))
        .filter((m): m is RegExpExecArray => m !== null && (PACKAGE_TEXT.test(m[2]) || path.posix.basename(m[2]) === 'package.xml'));
      if (texts.length > limits.packageFiles) throw new FetchError(`source ${source.id}: ${texts.length} description files, over ${limits.packageFiles} (limit packageFiles)`);
      for (const m of texts) {
        if (Number(m[1]) > limits.fileBytes) continue; // a large mesh-like text (e.g. a point cloud) is not a description file
        take(m[2], await show(m[2]));
      }
    }
    for (const f of source.files) {
      const p = specPath(f);
      if (!files.has(p)) take(p, await show(p));
    }
    return { commit, files };
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}

/** A plain local folder (not a git work tree): files read as they are, commit "folder". */
function fetchFolder(source: SourceSpec, root: string, limits: FetchLimits): FetchedSource {
  const files = new Map<string, Uint8Array>();
  let total = 0;
  const take = (rel: string) => {
    const abs = path.join(root, rel);
    if (path.relative(root, abs).startsWith('..')) throw new FetchError(`${rel} escapes ${source.repo}`);
    let size: number;
    try {
      size = fs.statSync(abs).size;
    } catch {
      throw new FetchError(`${rel} is not in ${source.repo}`);
    }
    if (size > limits.fileBytes) throw new FetchError(`${rel} is over ${limits.fileBytes} bytes (limit fileBytes)`);
    total += size;
    if (total > limits.totalBytes) throw new FetchError(`the files of source ${source.id} are over ${limits.totalBytes} bytes (limit totalBytes)`);
    files.set(rel, fs.readFileSync(abs));
  };
  if (needsPackage(source)) {
    const walk = (dir: string, depth: number): string[] =>
      depth > 16
        ? []
        : fs.readdirSync(path.join(root, dir), { withFileTypes: true }).flatMap((d) => {
            const rel = dir ? `${dir}/${d.name}` : d.name;
            if (d.isDirectory()) return d.name === '.git' ? [] : walk(rel, depth + 1);
            return d.isFile() && (PACKAGE_TEXT.test(d.name) || d.name === 'package.xml') ? [rel] : [];
          });
    const texts = walk('', 0);
    if (texts.length > limits.packageFiles) throw new FetchError(`source ${source.id}: ${texts.length} description files, over ${limits.packageFiles} (limit packageFiles)`);
    for (const t of texts) take(t);
  }
  for (const f of source.files) if (!files.has(specPath(f))) take(specPath(f));
  return { commit: 'folder', files };
}

/** Reads sources from their repositories: git for URLs and git work trees, the folder itself for a plain local folder. */
export function gitFetcher(limits: FetchLimits = DEFAULT_FETCH_LIMITS): SourceFetcher {
  return async (source) => {
    if (!isUrl(source.repo)) {
      const root = path.resolve(source.repo);
      if (!fs.existsSync(root)) throw new FetchError(`${source.repo} does not exist`);
      if (!fs.existsSync(path.join(root, '.git')) && !fs.existsSync(path.join(root, 'HEAD'))) return fetchFolder(source, root, limits);
    }
    return fetchGit(source, limits);
  };
}

/**
 * Reads the local copies in a robots folder (../shared/robots) whose README maps each copy to
 * its repository, path and commit. A source is served when its repo is a GitHub URL, its ref the
 * commit the README names and each file a copy the README lists (single files: urdf and BOMs).
 */
export function mirrorFetcher(robotsDir: string): SourceFetcher & { localFile(source: SourceSpec, index: number): string } {
  const readmePath = path.join(robotsDir, 'README.md');
  if (!fs.existsSync(readmePath)) throw new FetchError(`${readmePath} not found`);
  const rows = parseRobotsReadme(fs.readFileSync(readmePath, 'utf8'));
  const localFile = (source: SourceSpec, index: number) => {
    const p = specPath(source.files[index]);
    const repo = source.repo.replace(/^https:\/\/github\.com\//, '').replace(/\.git$/, '');
    const row = rows.find((r) => r.repo === repo && r.commit === source.ref && r.path === p);
    if (!row) throw new FetchError(`${repo} ${p} @ ${source.ref.slice(0, 12)} has no local copy in ${readmePath}`);
    return row.file;
  };
  const fetcher = async (source: SourceSpec): Promise<FetchedSource> => {
    const files = new Map<string, Uint8Array>();
    source.files.forEach((f, i) => {
      const local = localFile(source, i);
      try {
        files.set(specPath(f), fs.readFileSync(path.join(robotsDir, local)));
      } catch (e) {
        throw new FetchError(`${local}: ${(e as NodeJS.ErrnoException).code ?? 'unreadable'}`);
      }
    });
    return { commit: source.ref, files };
  };
  return Object.assign(fetcher, { localFile });
}
