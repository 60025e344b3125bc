/** The vt analysis plugin (ventilatory thresholds), over the project's models/ folder. */
import { createVtPlugin } from './plugin.js';

export default createVtPlugin();
