import { DEFAULT_CHANNELS, defaultChannel } from '../releases/channels';

/** What a store needs of the configuration. */
export interface StoreOptions {
  /**
   * The first of CHANNELS: the channel of a version created without one, and of the versions stored
   * before versions had channels.
   */
  defaultChannel: string;
}

export const DEFAULT_STORE_OPTIONS: Readonly<StoreOptions> = Object.freeze({ defaultChannel: defaultChannel(DEFAULT_CHANNELS) });
