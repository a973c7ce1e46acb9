/** Options every collection shares: records carry their own ids, and writes are compare-and-set, not versioned. */
export function collectionOptions(collection: string) {
  return { collection, versionKey: false, id: false, strict: 'throw', autoIndex: false } as const;
}
