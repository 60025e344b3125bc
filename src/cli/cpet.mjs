#!/usr/bin/env node
// The `cpet` command (package.json "bin"). Plain JavaScript so that it starts under plain node: it
// registers tsx's loader for TypeScript, then runs the command line (src/cli/main.ts).
import { register } from 'tsx/esm/api';

register();
const { main } = await import('./main.ts');
process.exitCode = await main(process.argv.slice(2));
