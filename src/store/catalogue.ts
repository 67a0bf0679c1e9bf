/** The catalogue port the domain declares (src/domain/catalogue/store.ts), implemented here by memory-catalogue.ts. */
export type * from '../domain/catalogue/store.js';
