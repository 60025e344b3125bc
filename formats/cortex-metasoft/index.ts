import type { FormatPlugin } from 'cpet-analysis-service/plugin';
import { detect } from './detect.js';
import { meta } from './meta.js';
import { parse } from './parse.js';

const plugin: FormatPlugin = { meta, detect, parse };
export default plugin;
