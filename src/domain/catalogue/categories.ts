import { DomainError } from '../shared/errors.js';

export interface CategoryRef {
  slug: string;
  name: string;
  spec_name: string | null;
}

/** Resolves a slug, display name or spec name (case-insensitive) to a slug; unknown -> 400 listing the valid ones. */
export function resolveCategory(input: string, categories: readonly CategoryRef[], field = 'category'): string {
  const needle = input.trim().toLowerCase();
  const hit = categories.find(
    (c) => c.slug.toLowerCase() === needle || c.name.toLowerCase() === needle || (c.spec_name ?? '').toLowerCase() === needle,
  );
  if (hit) return hit.slug;
  const valid = categories.map((c) => c.slug);
  throw new DomainError('unknown_category', `${field}: unknown category "${input}". Valid categories: ${valid.join(', ')}`, {
    field,
    valid_categories: valid,
  });
}
