export * from './schema.js';
export * from './fasteners.js';
export * from './links.js';
export * from './design.js';
