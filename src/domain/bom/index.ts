/** BOM export and BOM check: pure domain code behind export_bom / check_bom and their REST routes. */
export * from './schema.js';
export * from './money.js';
export * from './pricing.js';
export * from './suppliers.js';
export * from './print.js';
export * from './csv.js';
export * from './export.js';
export * from './check.js';
export * from './custom.js';
export * from './check-page.js';
