/** Every generated layout variant, by family. */
import { CORTEX_VARIANTS } from './cortex.js';
import { COSMED_VARIANTS } from './cosmed.js';
import { MGC_VARIANTS } from './mgc.js';
import { PARVO_VARIANTS } from './parvo.js';
import { RESEARCHER_VARIANTS } from './researcher.js';
import type { Variant } from './variant.js';
import { VYNTUS_VARIANTS } from './vyntus.js';

export type { Variant } from './variant.js';

export const VARIANTS: readonly Variant[] = [...COSMED_VARIANTS, ...CORTEX_VARIANTS, ...PARVO_VARIANTS, ...VYNTUS_VARIANTS, ...MGC_VARIANTS, ...RESEARCHER_VARIANTS];
