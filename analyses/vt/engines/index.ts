/** Every engine a model card may name in `pipeline.engine`. */
import type { Engine } from './engine.js';
import { gandalfMlp } from './gandalf-mlp/index.js';
import { wasserman } from './wasserman/index.js';

export const ENGINES: ReadonlyMap<string, Engine> = new Map([gandalfMlp, wasserman].map((e) => [e.id, e]));
