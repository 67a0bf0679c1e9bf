/**
 * Debian's check_urdf (liburdfdom-tools) as the oracle for lint labels: the same bytes written to a
 * temporary file, its verdict read from the exit status and what it logs.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll } from 'vitest';

export const CHECK_URDF = '/usr/bin/check_urdf';
export const checkUrdfPresent = fs.existsSync(CHECK_URDF);

export type Verdict = 'refuses' | 'warns' | 'accepts';
export const RANK: Record<Verdict, number> = { accepts: 0, warns: 1, refuses: 2 };

/** A temporary folder removed after the file's tests, and check_urdf run on files written into it. */
export function checkUrdfOracle(prefix: string): { tmp: string; checkUrdf: (content: string | Uint8Array, name: string) => Verdict } {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));
  const checkUrdf = (content: string | Uint8Array, name: string): Verdict => {
    const file = path.join(tmp, `${name}.urdf`);
    fs.writeFileSync(file, content);
    const r = spawnSync(CHECK_URDF, [file], { encoding: 'utf8' });
    if (r.status !== 0) return 'refuses';
    return /\b(Error|Warning)\b/.test(r.stderr) ? 'warns' : 'accepts';
  };
  return { tmp, checkUrdf };
}
