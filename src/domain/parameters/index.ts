/** Vendor-parameter semantics: parsing, exact conversion, spec-shaped fields. Pure domain code. */
export { specShapedFields, voltageRange } from './spec-shaped.js';
export type { DeclaredSpecInputs, SpecShapedFields } from './spec-shaped.js';
