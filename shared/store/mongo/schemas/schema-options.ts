/**
 * Options every collection shares: records carry their own ids, writes are conditional updates rather than
 * versioned saves, and a field the schema does not know is a bug to surface.
 */
export function collectionOptions(collection: string) {
  return { collection, versionKey: false, id: false, strict: 'throw' } as const;
}
