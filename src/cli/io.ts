/** Where a command writes and what it reads from its surroundings (the process's, or a test's). */
export interface Output {
  isTTY?: boolean;
  columns?: number;
  write(text: string): unknown;
}

export interface CliIO {
  stdout: Output;
  stderr: Output;
  env: NodeJS.ProcessEnv;
  cwd: string;
}

export function processIO(): CliIO {
  return { stdout: process.stdout, stderr: process.stderr, env: process.env, cwd: process.cwd() };
}

/** FORMAT_PLUGINS: extra format plugins from npm packages (as the server reads it). */
export function formatPackages(env: NodeJS.ProcessEnv): string[] {
  return (env.FORMAT_PLUGINS ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
}
