/**
 * Which price a BOM line uses, and why.
 *
 * Decision (measured on the catalogue snapshot, 798 records): no catalogue field holds an
 * unambiguous unit price.
 * - `price_range` (free field) is a range "<low>-<high>", and the spec says its unit is "not
 *   shown". Most values carry no currency ("200-500"); some carry "$" or "¥", symbols shared by
 *   several currencies; others are labels ("enterprise", "varies", "N/A (internal)") or open
 *   bounds ("1000+", "From $13,500"). Picking the low end, the high end or the middle would be
 *   inventing a price.
 * - `deep.price` (paid field) is present on 29 records, all language models, as per-token API
 *   pricing or labels ("Free", "tier"): not a part's unit price.
 * So the unit price comes from the item's own `price`; the catalogue `price_range` is carried on
 * the line verbatim for reference and never enters the arithmetic. The `CataloguePricer` hook
 * lets a future catalogue field with a real unit price and an ISO currency be used
 * ("catalogue:<field>") without touching the export; it is used only when its currency equals
 * the BOM currency given with the request.
 */
import type { StoredEntity } from '../catalogue/entity.js';
import { amountFromNumber, type Amount } from './money.js';

export interface CatalogueUnitPrice {
  /** Catalogue field the price was read from, e.g. "deep.unit_price". */
  field: string;
  amount: Amount;
  /** ISO 4217 code stated by the catalogue. */
  currency: string;
}

export type CataloguePricer = (record: StoredEntity) => CatalogueUnitPrice | null;

/** The current catalogue: no field yields an unambiguous unit price (see the file comment). */
export const noCatalogueUnitPrice: CataloguePricer = () => null;

export const PRICE_BASIS =
  'Unit prices are the prices sent with each item (price_source "item"). The catalogue has no field with an unambiguous unit price: ' +
  'price_range is a range whose unit the source does not state, so it is shown per line for reference and never used in totals. ' +
  'Line totals and the total are exact decimal sums; lines without a price (price_source "none") are excluded from the total and listed in unpriced_lines.';

export type PriceSource = 'item' | 'none' | `catalogue:${string}`;

export interface LinePrice {
  unit: Amount | null;
  source: PriceSource;
  note: string | null;
}

export function priceLine(
  item: { price?: number | null },
  record: StoredEntity | null,
  currency: string | null,
  pricer: CataloguePricer = noCatalogueUnitPrice,
): LinePrice {
  const notes: string[] = [];
  if (record) {
    const cat = pricer(record);
    if (cat) {
      if (currency !== null && cat.currency === currency) return { unit: cat.amount, source: `catalogue:${cat.field}`, note: null };
      notes.push(
        `catalogue unit price (${cat.field}, ${cat.currency}) not used: BOM currency is ${currency === null ? 'not given' : currency}`,
      );
    }
  }
  if (item.price !== undefined && item.price !== null) {
    return { unit: amountFromNumber(item.price), source: 'item', note: notes.length ? notes.join('; ') : null };
  }
  notes.push('no price given: excluded from the total');
  return { unit: null, source: 'none', note: notes.join('; ') };
}
