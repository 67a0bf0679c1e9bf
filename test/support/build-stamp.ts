/**
 * The test setup's build and npm start's stamp (dist/.build-stamp, scripts/build-if-stale.mjs):
 * the setup rebuilds parts of dist/ (not the browser assets), so it must neither claim a whole
 * build nor leave a stamp behind a build it left half-written. The stamp is moved aside while the
 * setup builds: a step that fails leaves none (the next npm start builds again); when every step
 * succeeds it is moved back, the same file with the same times, so a stamp that was fresh stays
 * fresh (the sources it was made from are those just built again) and one that was stale stays stale.
 */
import fs from 'node:fs';

export function buildWithStampAside(stamp: string, build: () => void): void {
  const aside = `${stamp}.aside`;
  fs.rmSync(aside, { force: true }); // left by a setup that was killed mid-build
  let had = true;
  try {
    fs.renameSync(stamp, aside); // a rename keeps the file's times exactly
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    had = false; // no stamp: none is made
  }
  try {
    build();
  } catch (err) {
    fs.rmSync(aside, { force: true });
    throw err;
  }
  if (had) fs.renameSync(aside, stamp);
}
