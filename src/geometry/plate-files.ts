/**
 * The files of a plate answer (design_adapter_plate): JSON, binary STL, 3MF, OpenSCAD. Shared by
 * the REST route (returns the file) and the MCP resources robotparts://plates/... (resources/read).
 */
import { PLATE_MEDIA_TYPES, plateFileName, type PlateAnswer, type PlateFormat, type PlateKey } from '../domain/plates/index.js';
import { plateMesh, scadSource, stlBytes, threeMfBytes } from './plate-mesh.js';

export interface PlateFileBody {
  name: string;
  mediaType: string;
  /** Text formats (json, scad) as text; binary ones (stl, 3mf) as bytes. */
  body: string | Uint8Array;
}

/** The file of one format for an answer that has a design; null when no plate is needed. */
export async function plateFile(answer: PlateAnswer, format: PlateFormat): Promise<PlateFileBody | null> {
  const d = answer.design;
  if (!d) return null;
  const key: PlateKey = { a: d.side_a.designation, b: d.side_b.designation, b_holes: d.b_holes, thickness_mm: d.thickness.override_mm };
  const name = plateFileName(key, format);
  const mediaType = PLATE_MEDIA_TYPES[format];
  const title = `robot-parts-mcp adapter plate ${d.side_a.designation} / ${d.side_b.designation}`;
  switch (format) {
    case 'json':
      return { name, mediaType, body: JSON.stringify(answer, null, 2) };
    case 'scad':
      return { name, mediaType, body: scadSource(d, [answer.not_load_rated, ...d.warnings]) };
    case 'stl':
      return { name, mediaType, body: stlBytes(await plateMesh(d), title) };
    case '3mf':
      return { name, mediaType, body: threeMfBytes(await plateMesh(d), title) };
  }
}
