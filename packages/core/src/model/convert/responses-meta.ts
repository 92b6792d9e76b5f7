/**
 * Metadata keys `fromResponsesItems` sets so `toResponsesInput` can rebuild the exact items.
 * Each is set only when the default rebuild would differ.
 */
export const RESPONSES_META = {
  /** `'developer'` on a system message that was a `developer` message. */
  role: 'mem.responses.role',
  /** WireResidue: item fields of a user, system or tool message mem has no slot for (`id`, `status`...). */
  item: 'mem.responses.item',
  /**
   * LayoutEntry[]: the items an assistant message was read from, in order — assistant message
   * items (how many content parts each), function calls, and items kept verbatim as parts.
   */
  layout: 'mem.responses.layout',
  /** Record<content index, fields>: extra fields of typed content parts (`annotations`...). */
  parts: 'mem.responses.parts',
} as const;

/** One item of an assistant message's layout. */
export type LayoutEntry =
  | { item: 'message'; parts: number; text?: true; residue?: unknown }
  | { item: 'call'; residue?: unknown }
  | { item: 'verbatim' };
