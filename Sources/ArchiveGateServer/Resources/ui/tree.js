// A collapsible JSON tree that renders lazily: a container's children are created only when it is
// expanded, at most PAGE_SIZE at a time ("show more"), so a 50,000-object archive costs a few
// hundred DOM nodes until the user asks for more. Every key and value is a text node.

import { el, clear } from './dom.js';

const PAGE_SIZE = 100;

/** RFC 6901: "/a~1b/0" → ["a/b", "0"]; "" is the whole document. */
export function parsePointer(pointer) {
    if (pointer === '') return [];
    if (!pointer.startsWith('/')) return null;
    return pointer.slice(1).split('/').map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

function escapeToken(token) {
    return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

function isRaw(value) {
    return typeof JSON.isRawJSON === 'function' && JSON.isRawJSON(value);
}

function isContainer(value) {
    return value !== null && typeof value === 'object' && !isRaw(value);
}

class TreeNode {
    constructor(value, label, pointer) {
        this.value = value;
        this.pointer = pointer;
        this.entries = null;      // [[key, value]…], made on first expand
        this.indexByKey = null;   // Map, made on first lookup by key
        this.children = [];       // TreeNode per rendered entry
        this.expanded = false;
        this.more = null;         // the "show more" row, when some entries are not rendered
        this.li = el('li', { className: 'node', dataset: { pointer } });
        this.row = el('div', { className: 'row', attrs: { tabindex: '-1' } });
        this.li.append(this.row);
        if (isContainer(value)) {
            this.toggle = el('button', { className: 'toggle', text: '▸', attrs: { type: 'button', 'aria-expanded': 'false', 'aria-label': 'expand' } });
            this.row.append(this.toggle);
        } else {
            this.row.append(el('span', { className: 'toggle-space' }));
        }
        if (label !== null) {
            this.row.append(el('span', { className: typeof label === 'number' ? 'index' : 'key', text: typeof label === 'number' ? label : JSON.stringify(label) }),
                el('span', { className: 'colon', text: ': ' }));
        }
        this.row.append(describe(value));
        if (isContainer(value)) {
            this.list = el('ul', { className: 'children', hidden: true });
            this.li.append(this.list);
        }
    }

    get entryList() {
        if (!this.entries) {
            this.entries = Array.isArray(this.value) ? this.value.map((item, index) => [index, item]) : Object.entries(this.value);
        }
        return this.entries;
    }

    indexOf(token) {
        if (Array.isArray(this.value)) {
            if (!/^(0|[1-9]\d*)$/.test(token)) return -1;
            const index = Number(token);
            return index < this.value.length ? index : -1;
        }
        if (!this.indexByKey) this.indexByKey = new Map(this.entryList.map(([key], index) => [key, index]));
        return this.indexByKey.get(token) ?? -1;
    }
}

/** The one-line view of a value: scalars in full, containers as a summary. */
function describe(value) {
    if (value === null) return el('span', { className: 'value null', text: 'null' });
    if (isRaw(value)) return el('span', { className: 'value number', text: value.rawJSON });
    switch (typeof value) {
    case 'string': return el('span', { className: 'value string', text: JSON.stringify(value) });
    case 'number': return el('span', { className: 'value number', text: String(value) });
    case 'boolean': return el('span', { className: 'value boolean', text: String(value) });
    default: break;
    }
    if (Array.isArray(value)) {
        return el('span', { className: 'summary', text: `[${value.length} item${value.length === 1 ? '' : 's'}]` });
    }
    const keys = Object.keys(value);
    const className = typeof value.$class === 'string' ? `${value.$class}, ` : '';
    const reference = typeof value.$ref === 'string' ? ` → ${value.$ref}` : '';
    return el('span', { className: 'summary', text: `{${className}${keys.length} key${keys.length === 1 ? '' : 's'}}${reference}` });
}

export class JsonTree {
    constructor(container) {
        this.container = container;
        this.root = null;
        this.highlighted = null;
        container.addEventListener('click', (event) => this.#onClick(event));
    }

    /**
     * Shows `value` with the top level expanded, and below it any chain of single containers
     * (`{"root": {…}}` opens at the root object's fields).
     */
    show(value) {
        clear(this.container);
        this.highlighted = null;
        this.root = new TreeNode(value, null, '');
        this.container.append(el('ul', { className: 'tree-root' }, this.root.li));
        let node = this.root;
        for (let depth = 0; depth < 4 && node?.list; depth += 1) {
            this.#expand(node);
            node = node.entryList.length === 1 ? node.children[0] : null;
        }
    }

    clear() {
        clear(this.container);
        this.root = null;
        this.highlighted = null;
    }

    collapseAll() {
        if (!this.root) return;
        const stack = [this.root];
        while (stack.length) {
            const node = stack.pop();
            if (node.expanded) this.#collapse(node);
            stack.push(...node.children);
        }
        this.#expand(this.root);
    }

    /** How many value rows exist in the DOM (the test checks laziness with it). */
    get renderedCount() {
        return this.container.querySelectorAll('li.node').length;
    }

    /**
     * Opens every container on the way to `pointer`, renders the page holding each step, and
     * highlights the target. Returns false (and highlights the deepest node reached) when the
     * pointer does not exist in this JSON.
     */
    reveal(pointer) {
        if (!this.root) return false;
        const tokens = parsePointer(pointer);
        let node = this.root;
        let found = tokens !== null;
        for (const token of tokens ?? []) {
            if (!isContainer(node.value)) { found = false; break; }
            const index = node.indexOf(token);
            if (index < 0) { found = false; break; }
            this.#expand(node);
            while (node.children.length <= index) this.#renderMore(node);
            node = node.children[index];
        }
        this.#highlight(node);
        return found;
    }

    #highlight(node) {
        this.highlighted?.row.classList.remove('highlight');
        node.row.classList.add('highlight');
        this.highlighted = node;
        node.row.scrollIntoView({ block: 'center' });
        node.row.focus({ preventScroll: true });
    }

    #onClick(event) {
        const target = event.target;
        if (!(target instanceof HTMLElement)) return;
        const li = target.closest('li');
        if (!li || !this.container.contains(li)) return;
        if (target.classList.contains('toggle')) {
            const node = this.#nodeFor(li);
            if (node) (node.expanded ? this.#collapse(node) : this.#expand(node));
        } else if (target.classList.contains('more')) {
            const node = this.#nodeFor(li.parentElement.closest('li.node'));
            if (node) this.#renderMore(node);
        }
    }

    /** Finds the node of a rendered `li` by walking its pointer from the root. */
    #nodeFor(li) {
        if (!li || !this.root) return null;
        let node = this.root;
        for (const token of parsePointer(li.dataset.pointer) ?? []) {
            const index = node.indexOf(token);
            node = node.children[index];
            if (!node) return null;
        }
        return node;
    }

    #expand(node) {
        if (!node.list || node.expanded) return;
        node.expanded = true;
        node.list.hidden = false;
        node.toggle.textContent = '▾';
        node.toggle.setAttribute('aria-expanded', 'true');
        node.toggle.setAttribute('aria-label', 'collapse');
        if (node.children.length === 0) this.#renderMore(node);
    }

    #collapse(node) {
        if (!node.list || !node.expanded) return;
        node.expanded = false;
        node.list.hidden = true;
        node.toggle.textContent = '▸';
        node.toggle.setAttribute('aria-expanded', 'false');
        node.toggle.setAttribute('aria-label', 'expand');
    }

    /** Renders the next PAGE_SIZE entries of `node`, then a "show more" row if any are left. */
    #renderMore(node) {
        const entries = node.entryList;
        const start = node.children.length;
        const end = Math.min(entries.length, start + PAGE_SIZE);
        node.more?.remove();
        node.more = null;
        const fragment = document.createDocumentFragment();
        for (let index = start; index < end; index += 1) {
            const [key, value] = entries[index];
            const child = new TreeNode(value, key, `${node.pointer}/${escapeToken(key)}`);
            node.children.push(child);
            fragment.append(child.li);
        }
        if (end < entries.length) {
            const left = entries.length - end;
            node.more = el('li', { className: 'more-row' },
                el('button', { className: 'more', text: `show ${Math.min(PAGE_SIZE, left)} more (${left} not shown)`, attrs: { type: 'button' } }));
            fragment.append(node.more);
        }
        node.list.append(fragment);
    }
}
