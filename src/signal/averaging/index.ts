/** Averaging of CPET channels as researchers state it in their methods: spec.ts says what, apply.ts does it. */
export * from './spec.js';
export * from './apply.js';
export { filtfiltLowPass } from './butterworth.js';
