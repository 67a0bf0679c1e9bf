/**
 * Builds dist/ once before the suite, as `npm run build` does: the stdio and CLI tests spawn the
 * real binary. With npm start's build stamp set aside meanwhile (./build-stamp.ts): a step that
 * fails half-way leaves no stamp, so the next npm start builds again.
 */
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import { buildWithStampAside } from './build-stamp.js';

export default function setup(): void {
  const root = path.resolve(import.meta.dirname, '../..');
  buildWithStampAside(path.join(root, 'dist', '.build-stamp'), () => buildSteps(root));
}

function buildSteps(root: string): void {
  execFileSync(process.execPath, [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', path.join(root, 'tsconfig.build.json')], {
    cwd: root,
    stdio: 'inherit',
  });
  // The MCP Apps views (dist/views), which resources/read serves.
  execFileSync(process.execPath, [path.join(root, 'scripts/app-views.mjs')], { cwd: root, stdio: 'inherit' });
  // As `npm run build` does: the compiled modules replaced by their bundle (what the package ships,
  // so what the CLI tests spawn), then the prebuilt tools/list, stamped for the registry just built
  // (a stale stamp would leave every later stdio start converting the schemas again).
  execFileSync(process.execPath, [path.join(root, 'scripts/bundle.mjs')], { cwd: root, stdio: 'inherit' });
  execFileSync(process.execPath, [path.join(root, 'scripts/tools-list-cache.mjs')], { cwd: root, stdio: 'inherit' });
}
