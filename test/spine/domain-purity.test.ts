/**
 * src/domain is pure: no file-system access, no serialised bytes. Shipped datasets are read once
 * by the loader in src/store/datasets.ts at start-up and handed to the domain parsed; the JSON
 * text and bytes of answers are made by the wire code (src/wire/prepared.ts).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DATASET_FILES, loadDatasets, readDataset } from '../../src/store/datasets.js';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

function tsFiles(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((d) => {
    const p = path.join(dir, d.name);
    return d.isDirectory() ? tsFiles(p) : d.name.endsWith('.ts') ? [p] : [];
  });
}

describe('domain purity', () => {
  it('no file under src/domain imports node:fs (or fs)', () => {
    const files = tsFiles(path.join(ROOT, 'src/domain'));
    expect(files.length).toBeGreaterThan(20);
    const offenders = files.filter((f) => /from\s+['"](?:node:)?fs(?:\/promises)?['"]|require\(\s*['"](?:node:)?fs/.test(fs.readFileSync(f, 'utf8')));
    expect(offenders.map((f) => path.relative(ROOT, f))).toEqual([]);
  });

  it('no file under src/domain uses Buffer, TextEncoder or TextDecoder (bytes are wire code), constant-time secret comparisons aside', () => {
    // crypto.timingSafeEqual takes bytes: these files turn two secrets into Buffers to compare them, nothing else.
    const CONSTANT_TIME = ['src/domain/accounts/keys.ts', 'src/domain/payments/sandbox.ts', 'src/domain/payments/signature.ts'];
    const files = tsFiles(path.join(ROOT, 'src/domain'));
    const offenders: string[] = [];
    for (const f of files) {
      const rel = path.relative(ROOT, f).split(path.sep).join('/');
      const text = fs.readFileSync(f, 'utf8');
      if (/\bText(?:En|De)coder\b/.test(text)) offenders.push(rel);
      else if (/\bBuffer\b/.test(text) && !(CONSTANT_TIME.includes(rel) && /\btimingSafeEqual\b/.test(text))) offenders.push(rel);
    }
    expect(offenders).toEqual([]);
    // The exceptions are still there (a file renamed or rid of Buffer leaves its entry to be removed).
    for (const rel of CONSTANT_TIME) expect(fs.readFileSync(path.join(ROOT, rel), 'utf8'), rel).toMatch(/\bBuffer\.from\b[\s\S]*\btimingSafeEqual\b|\btimingSafeEqual\b[\s\S]*\bBuffer\.from\b/);
  });

  it('the loader reads every dataset file of data/ and parses it', () => {
    const d = loadDatasets(path.join(ROOT, 'data'));
    for (const rel of Object.values(DATASET_FILES)) expect(fs.existsSync(path.join(ROOT, 'data', rel)), rel).toBe(true);
    const flangeFile = JSON.parse(fs.readFileSync(path.join(ROOT, 'data', DATASET_FILES.flanges), 'utf8'));
    expect(d.flanges.designations.length).toBe(flangeFile.designations.length);
    const busFile = JSON.parse(fs.readFileSync(path.join(ROOT, 'data', DATASET_FILES.buses), 'utf8'));
    expect(d.buses.file.buses.length).toBe(busFile.buses.length);
  });

  it('a missing or invalid dataset fails with the file name', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'datasets-'));
    try {
      expect(() => loadDatasets(dir)).toThrow(/designations\.json/);
      fs.writeFileSync(path.join(dir, 'bad.json'), '{"x":');
      expect(() => readDataset(dir, 'bad.json', (j) => j)).toThrow(/bad\.json/);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
