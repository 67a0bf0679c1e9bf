/** Vendor-parameter semantics: parsing, exact conversion, comparability, spec-shaped fields. Pure domain code. */
export { specShapedFields, voltageRange } from './spec-shaped.js';
export type { DeclaredSpecInputs, SpecShapedFields } from './spec-shaped.js';
export { parseParameter, notationOf, normalizeNotation, requiredConditions, conditionWords } from './parse.js';
export type { RequiredCondition } from './parse.js';
export * from './types.js';
export { convert, compareParameters, inverseFormula } from './convert.js';
export type { ConvertResult, ConvertedNumber, PairComparison } from './convert.js';
export { unitSymbols, lookupTargetUnit, CANONICAL_UNIT } from './units.js';
export type { UnitDef, Dimension } from './units.js';
