/**
 * Building DOM without a framework. Text always goes in as text nodes, never as HTML, so nothing a
 * file or the service says can become markup.
 */
type Child = Node | string | number | null | undefined | false;
type Attributes = Record<string, string | number | boolean | null | undefined | ((event: Event) => void)>;

/** An element with attributes (`on*` keys become listeners; true/false toggle boolean attributes). */
export function h<K extends keyof HTMLElementTagNameMap>(tag: K, attributes: Attributes = {}, ...children: (Child | Child[])[]): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [name, value] of Object.entries(attributes)) {
    if (value === null || value === undefined || value === false) continue;
    if (typeof value === 'function') el.addEventListener(name.slice(2).toLowerCase(), value);
    else el.setAttribute(name, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

/** Appends children, skipping empty ones. */
export function append(parent: Node, children: (Child | Child[])[]): void {
  for (const child of children.flat()) {
    if (child === null || child === undefined || child === false) continue;
    parent.appendChild(typeof child === 'string' || typeof child === 'number' ? document.createTextNode(String(child)) : child);
  }
}

/** Replaces an element's content. */
export function replace(parent: Element, ...children: (Child | Child[])[]): void {
  parent.replaceChildren();
  append(parent, children);
}

/** The element with this id; throws when the page lacks it (a broken template, not a user error). */
export function byId<T extends HTMLElement = HTMLElement>(id: string): T {
  const el = document.getElementById(id);
  if (!el) throw new Error(`the page has no #${id}`);
  return el as T;
}

/** A table from a header row and body rows (cells may be nodes). */
export function table(caption: string | null, head: string[], rows: (Child | Child[])[][], className = 'data'): HTMLElement {
  return h(
    'div',
    { class: 'table-wrap' },
    h(
      'table',
      { class: className },
      caption ? h('caption', {}, caption) : null,
      h(
        'thead',
        {},
        h(
          'tr',
          {},
          head.map((c) => h('th', { scope: 'col' }, c)),
        ),
      ),
      h(
        'tbody',
        {},
        rows.map((r) =>
          h(
            'tr',
            {},
            r.map((c, i) => (i === 0 ? h('th', { scope: 'row' }, c) : h('td', {}, c))),
          ),
        ),
      ),
    ),
  );
}

/** A definition list from label/value pairs (pairs with an empty value are left out). */
export function facts(pairs: [string, Child | Child[]][]): HTMLElement {
  return h(
    'dl',
    { class: 'facts' },
    pairs.filter(([, v]) => v !== null && v !== undefined && v !== '').flatMap(([k, v]) => [h('dt', {}, k), h('dd', {}, v)]),
  );
}

/** A section heading with an id for aria-labelledby. */
export function heading(id: string, text: string, ...extra: Child[]): HTMLElement {
  return h('h2', { id }, text, ...extra);
}

/** A small badge, e.g. "research · beta". */
export function badge(text: string, kind = 'research'): HTMLElement {
  return h('span', { class: `badge badge-${kind}` }, text);
}
