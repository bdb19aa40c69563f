import { createContext, useContext } from 'react';
import type { HarSummary, VendorKind } from '../../../lib/tools/har/types.js';

/**
 * Each vendor's name and kind for the page, from the analysis' summary (the worker names them from
 * the decoders). The page never imports the decoders themselves: they stay in the worker's bundle.
 */
export interface VendorInfo {
  label: string;
  kind: VendorKind;
}

export type VendorNames = ReadonlyMap<string, VendorInfo>;

export function vendorNamesOf(summary: HarSummary): VendorNames {
  return new Map(summary.byVendor.map((row) => [row.key, { label: row.label ?? row.key, kind: row.kind ?? 'analytics' }]));
}

export const VendorNamesContext = createContext<VendorNames>(new Map());

/** The name to show for a vendor id (the id itself when the summary does not know it). */
export function useVendorName(): (vendor: string) => string {
  const names = useContext(VendorNamesContext);
  return (vendor) => names.get(vendor)?.label ?? vendor;
}
