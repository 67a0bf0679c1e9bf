/**
 * The file tables of a robots folder's README (../shared/robots/README.md): each local copy with
 * its repository, path, commit, licence and robot type. The mirror fetcher (fetch.ts) maps the
 * shipped sources to these copies.
 */
import { cleanCell, markdownTables } from './table.js';

export class ReadmeError extends Error {}

export interface ReadmeRow {
  file: string;
  repo: string;
  path: string;
  commit: string;
  license: string;
  license_note: string | null;
  type: string | null;
}

const ROBOT_TYPES = new Set(['humanoid', 'quadruped', 'arm', 'hexapod', 'biped', 'hand', 'mobile manipulator']);

/** The file table of shared/robots/README.md; a robot type stated for one file of a project holds for the project. */
export function parseRobotsReadme(text: string): ReadmeRow[] {
  const tables = markdownTables(text).filter((t) => t.header.map((h) => cleanCell(h).text.toLowerCase()).includes('file'));
  if (tables.length === 0) throw new ReadmeError('README.md has no file table');
  const rows = tables.flatMap(readmeTableRows);
  for (const r of rows) {
    if (r.type === null) r.type = rows.find((o) => o.repo === r.repo && o.type !== null)?.type ?? null;
  }
  return rows;
}

/** One file table of the README (every table with a "file" column has the same columns). */
function readmeTableRows(table: ReturnType<typeof markdownTables>[number]): ReadmeRow[] {
  const header = table.header.map((h) => cleanCell(h).text.toLowerCase());
  const col = (name: string) => {
    const i = header.findIndex((h) => h === name || h.startsWith(name));
    if (i < 0) throw new ReadmeError(`README.md file table has no "${name}" column`);
    return i;
  };
  const [cFile, cProject, cPath, cCommit, cLicence, cHolds] = ['file', 'project', 'path', 'commit', 'licen', 'what it holds'].map(col);
  return table.rows.map((r) => {
    const cell = (i: number) => cleanCell(r.cells[i] ?? '').text;
    const lic = /^([A-Za-z0-9.+-]+)\s*(?:\((.*)\))?\s*$/.exec(cell(cLicence));
    if (!lic) throw new ReadmeError(`README.md line ${r.line}: licence "${cell(cLicence)}" does not start with an SPDX identifier`);
    const holds = /^([a-z ]+):/.exec(cell(cHolds));
    return {
      file: cell(cFile),
      repo: cell(cProject),
      path: cell(cPath),
      commit: cell(cCommit),
      license: lic[1],
      license_note: lic[2]?.trim() || null,
      type: holds && ROBOT_TYPES.has(holds[1]) ? holds[1] : null,
    };
  });
}

