/** deploy/nginx.conf.template's location. */
export const NGINX_TEMPLATE: URL;
/** The template with each `${NAME}` replaced by values[NAME] (nginx's own `$variables` untouched); throws when one is missing. */
export function renderNginx(values: Record<string, string>): string;
