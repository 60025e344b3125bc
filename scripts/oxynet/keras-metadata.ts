/**
 * Reads `keras_metadata.pb`, the SavedMetadata proto Keras writes next to a SavedModel
 * (keras/protobuf/saved_metadata.proto: 1 nodes, each a SavedObject with 2 node_id, 3 node_path,
 * 4 identifier, 5 metadata). The metadata of each layer is the JSON of its config.
 */
import { Message } from '../protobuf/reader.js';

export interface KerasNode {
  node_id: number;
  /** e.g. `root` for the model, `root.conv1` for a layer held in attribute `conv1`. */
  node_path: string;
  /** `_tf_keras_model`, `_tf_keras_layer`, ... */
  identifier: string;
  /** The parsed JSON metadata: class_name, name, config, build_input_shape, ... */
  metadata: KerasLayerMetadata;
}

export interface KerasLayerMetadata {
  class_name: string;
  name: string;
  config: Record<string, unknown>;
  build_input_shape?: { class_name: string; items: (number | null)[] } | null;
  [key: string]: unknown;
}

/** Every node of the metadata, in file order. */
export function readKerasMetadata(bytes: Uint8Array): KerasNode[] {
  return new Message(bytes).messages(1).map((n) => ({
    node_id: n.number(2),
    node_path: n.string(3),
    identifier: n.string(4),
    metadata: JSON.parse(n.string(5)) as KerasLayerMetadata,
  }));
}

/** A Keras tuple (`{class_name: '__tuple__', items: [...]}`) or a plain value, as an array of numbers. */
export function kerasInts(value: unknown): number[] | null {
  const items = value && typeof value === 'object' && 'items' in value ? (value as { items: unknown }).items : value;
  if (typeof items === 'number') return [items];
  return Array.isArray(items) && items.every((v) => typeof v === 'number') ? (items as number[]) : null;
}
