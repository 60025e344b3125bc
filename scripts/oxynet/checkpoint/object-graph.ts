/**
 * Reads the `_CHECKPOINTABLE_OBJECT_GRAPH` of a TensorFlow 2 checkpoint: a TrackableObjectGraph
 * (tensorflow/core/protobuf/trackable_object_graph.proto) whose nodes name their children
 * (1 children: ObjectReference 1 node_id, 2 local_name) and the tensors they own
 * (2 attributes: SerializedTensor 1 name, 2 full_name, 3 checkpoint_key). Node 0 is the saved
 * object (the Keras model); its children are the layers by attribute name.
 */
import { Message } from '../../protobuf/reader.js';

/** The key under which TF 2 checkpoints store their object graph. */
export const OBJECT_GRAPH_KEY = '_CHECKPOINTABLE_OBJECT_GRAPH';

/** One variable a layer owns, as the object graph names it. */
export interface LayerVariable {
  /** Attribute path from the model, e.g. `conv1.kernel`. */
  path: string;
  /** The layer's Keras attribute name, e.g. `conv1`. */
  layer: string;
  /** The variable's attribute name in its layer, e.g. `kernel`. */
  attribute: string;
  /** The TF variable name, e.g. `model/conv1d/kernel`. */
  full_name: string;
  /** Its key in the tensor bundle, e.g. `variables/0/.ATTRIBUTES/VARIABLE_VALUE`. */
  checkpoint_key: string;
}

interface Node {
  children: { node: number; name: string }[];
  attributes: { name: string; full_name: string; checkpoint_key: string }[];
}

function readNodes(graph: Uint8Array): Node[] {
  return new Message(graph).messages(1).map((n) => ({
    children: n.messages(1).map((c) => ({ node: c.number(1), name: c.string(2) })),
    attributes: n.messages(2).map((a) => ({ name: a.string(1), full_name: a.string(2), checkpoint_key: a.string(3) })),
  }));
}

/** The variables each named layer of the root object owns, in the order the graph lists them. */
export function layerVariables(graph: Uint8Array, layers: readonly string[]): LayerVariable[] {
  const nodes = readNodes(graph);
  const root = nodes[0];
  if (!root) throw new Error('the object graph has no nodes');
  const out: LayerVariable[] = [];
  for (const layer of layers) {
    const child = root.children.find((c) => c.name === layer);
    if (!child) throw new Error(`the object graph's root has no child ${layer}`);
    for (const v of nodes[child.node]?.children ?? []) {
      const value = nodes[v.node]?.attributes.find((a) => a.name === 'VARIABLE_VALUE');
      if (value) out.push({ path: `${layer}.${v.name}`, layer, attribute: v.name, full_name: value.full_name, checkpoint_key: value.checkpoint_key });
    }
  }
  return out;
}
