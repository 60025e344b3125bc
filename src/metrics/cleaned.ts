/**
 * A gas channel with breath outliers masked (src/signal/outliers.ts), computed once per Recording
 * object and channel and shared by the peak metrics of one compute call.
 */
import type { ChannelName, Recording } from '../recording/recording.js';
import { channel } from '../recording/recording.js';
import { maskOutliers } from '../signal/outliers.js';

const cache = new WeakMap<Recording, Map<ChannelName, (number | null)[]>>();

/** The channel's values with outlying breaths set to null (an empty list when the channel is absent). */
export function cleaned(rec: Recording, name: ChannelName): (number | null)[] {
  let byName = cache.get(rec);
  if (!byName) {
    byName = new Map();
    cache.set(rec, byName);
  }
  let values = byName.get(name);
  if (!values) {
    values = maskOutliers(rec.t_s, channel(rec, name) ?? []);
    byName.set(name, values);
  }
  return values;
}
