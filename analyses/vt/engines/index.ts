/** Every engine a model card may name in `pipeline.engine`. */
import type { Engine } from './engine.js';
import { gandalfMlp } from './gandalf-mlp/index.js';
import { oxynetUpstream } from './oxynet-upstream/index.js';
import { oxynetCnn } from './oxynet/index.js';
import { wasserman, wassermanOnChannels } from './wasserman/index.js';

export const ENGINES: ReadonlyMap<string, Engine> = new Map([gandalfMlp, oxynetCnn, oxynetUpstream, wasserman, wassermanOnChannels].map((e) => [e.id, e]));
