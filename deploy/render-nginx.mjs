// Renders deploy/nginx.conf.template as the nginx image does at start (envsubst limited to the
// variables given: nginx's own $variables stay as they are), for the deployment test and for anyone
// running nginx without that image. A variable the template names but `values` lacks is an error.
import { readFileSync } from 'node:fs';

export const NGINX_TEMPLATE = new URL('./nginx.conf.template', import.meta.url);

/**
 * @param {Record<string, string>} values
 * @returns {string}
 */
export function renderNginx(values) {
  const template = readFileSync(NGINX_TEMPLATE, 'utf8');
  return template.replace(/\$\{([A-Z][A-Z0-9_]*)\}/g, (_whole, name) => {
    if (!(name in values)) throw new Error(`deploy/nginx.conf.template needs ${name}`);
    return values[name];
  });
}
