/** Compile-time helpers: \`Assert<Equals<A, B>>\` fails the build when two types differ. */
export type Equals<A, B> = (<T>() => T extends A ? 1 : 2) extends <T>() => T extends B ? 1 : 2 ? true : false;
export type Assert<T extends true> = T;
