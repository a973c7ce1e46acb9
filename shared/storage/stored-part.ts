/** A part a multipart upload holds. (Its own module: the contract and the browser apps use it without the storage port's Node types.) */
export interface StoredPart {
  partNumber: number;
  size: number;
  /** The store's tag for the part's bytes, as the store quotes it; completing names each part by it. */
  etag: string;
}
