// A collapsible JSON tree that renders lazily: a container's children are created only when it is
// expanded, at most PAGE_SIZE at a time ("show more"), so a 50,000-object archive costs a few
// hundred DOM nodes until the user asks for more. Every key and value is a text node.
//
// It is an ARIA tree with one tab stop (the selected row): arrow keys move, expand and collapse,
// Enter toggles or follows a typed-mode `{"$uid": n}` reference (a link to `/$objects/n`, with
// "back"). Search marks matching rows and can filter the tree down to them.

import { el, clear } from './dom.js';
import { parsePointer, escapeToken, jqPath } from './paths.js';
import { isContainer, scalarText, uidOf, classOf, typedClassNames, search, ancestorsOf, marked } from './search.js';
import { dateNote } from './dates.js';

const PAGE_SIZE = 100;
/** Expand all / expand subtree stop after creating this many rows, so the tab stays responsive. */
export const EXPAND_BUDGET = 2000;
/** A filtered tree opens the way to at most this many matches (the rest stay reachable by "next"). */
const FILTER_REVEALS = 200;

class TreeNode {
    constructor(value, key, pointer, parent) {
        this.value = value;
        this.key = key;            // null for the root, a number inside an array, else the member name
        this.pointer = pointer;
        this.parent = parent;
        this.depth = parent ? parent.depth + 1 : 0;
        this.entries = null;       // [[key, value]…], made on first expand
        this.indexByKey = null;    // Map, made on first lookup by key
        this.children = [];        // TreeNode per rendered entry
        this.expanded = false;
        this.more = null;          // the "show more" row, when some entries are not rendered
        this.li = el('li', { className: 'node', dataset: { pointer } });
        this.row = el('div', { className: 'row', attrs: { tabindex: '-1', role: 'treeitem', 'aria-level': String(this.depth + 1) } });
        this.li.append(this.row);
        if (this.isOpenable) {
            this.row.setAttribute('aria-expanded', 'false');
            this.list = el('ul', { className: 'children', hidden: true, attrs: { role: 'group' } });
            this.li.append(this.list);
        }
    }

    /** Containers open; a typed reference `{"$uid": n}` is a link instead. */
    get isOpenable() {
        return isContainer(this.value) && this.uid === null;
    }

    get uid() {
        if (this.cachedUID === undefined) this.cachedUID = this.typed ? uidOf(this.value) : null;
        return this.cachedUID;
    }

    get typed() {
        let node = this;
        while (node.parent) node = node.parent;
        return node.isTypedRoot === true;
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

    /** The steps from the root, for a jq path. */
    get steps() {
        const steps = [];
        for (let node = this; node.parent; node = node.parent) {
            steps.push({ key: node.key, inArray: Array.isArray(node.parent.value) });
        }
        return steps.reverse();
    }
}

export class JsonTree {
    /** `onChange()` is called when the selection, the back history or the search changes. */
    constructor(container, onChange = () => {}) {
        this.container = container;
        this.onChange = onChange;
        this.nodeByRow = new WeakMap();
        this.utc = false;
        this.#reset();
        container.setAttribute('role', 'tree');
        container.addEventListener('click', (event) => this.#onClick(event));
        container.addEventListener('keydown', (event) => this.#onKey(event));
    }

    #reset() {
        this.root = null;
        this.selected = null;
        this.highlighted = null;
        this.classNames = new Map();
        this.history = [];
        this.query = '';
        this.matches = [];
        this.matchSet = new Set();
        this.ancestors = new Set();
        this.matchTotal = 0;
        this.current = -1;
        this.filtering = false;
    }

    /**
     * Shows `value` with the top level expanded, and below it any chain of single containers
     * (`{"root": {…}}` opens at the root object's fields). `typed`: `{"$uid": n}` values are links.
     */
    show(value, { typed = false } = {}) {
        clear(this.container);
        this.#reset();
        this.classNames = typed ? typedClassNames(value) : new Map();
        this.root = new TreeNode(value, null, '', null);
        this.root.isTypedRoot = typed;
        this.#fill(this.root);
        this.container.append(el('ul', { className: 'tree-root' }, this.root.li));
        this.#select(this.root, { focus: false });
        let node = this.root;
        for (let depth = 0; depth < 4 && node?.list; depth += 1) {
            this.#expand(node);
            node = node.entryList.length === 1 ? node.children[0] : null;
        }
        // Typed mode starts from `$top`: its references are the way into `$objects`.
        const top = typed ? this.root.children.find((child) => child.key === '$top') : null;
        if (top) this.#expand(top);
        this.onChange();
    }

    clear() {
        clear(this.container);
        this.#reset();
        this.onChange();
    }

    /** How many value rows exist in the DOM (the test checks laziness with it). */
    get renderedCount() {
        return this.container.querySelectorAll('li.node').length;
    }

    get canGoBack() {
        return this.history.length > 0;
    }

    // Expanding and collapsing --------------------------------------------------------------------

    collapseAll() {
        if (!this.root) return;
        this.collapseSubtree(this.root);
        this.#expand(this.root);
        this.#select(this.root, { focus: false });
    }

    collapseSubtree(start) {
        const stack = [start];
        while (stack.length) {
            const node = stack.pop();
            if (node.expanded) this.#collapse(node);
            stack.push(...node.children);
        }
    }

    /**
     * Opens `start` and everything below it breadth first (a page of each container) until
     * EXPAND_BUDGET rows were made. Returns whether every container below `start` is open.
     */
    expandSubtree(start) {
        if (!start) return true;
        const queue = [start];
        let made = 0;
        for (let head = 0; head < queue.length; head += 1) {
            const node = queue[head];
            if (!node.isOpenable) continue;
            if (made >= EXPAND_BUDGET) return false;
            const before = node.children.length;
            this.#expand(node);
            made += node.children.length - before;
            queue.push(...node.children);
        }
        return true;
    }

    // Selection, copying and navigation ------------------------------------------------------------

    /** What the copy buttons copy for the selected row: `{value, pointer, jq}`. */
    selectedAddresses() {
        const node = this.selected;
        if (!node) return null;
        const value = isContainer(node.value) ? JSON.stringify(node.value, null, 2) : scalarText(node.value);
        return { value, pointer: node.pointer, jq: jqPath(node.steps) };
    }

    /** Follows a typed `{"$uid": n}`: reveals `/$objects/n`; "back" returns to where it was. */
    follow(uid) {
        this.history.push(this.selected?.pointer ?? '');
        const found = this.reveal(`/$objects/${uid}`);
        this.onChange();
        return found;
    }

    back() {
        if (!this.history.length) return;
        this.reveal(this.history.pop());
        this.onChange();
    }

    /**
     * Opens every container on the way to `pointer` and the target itself, renders the page
     * holding each step, and highlights and selects the target. Returns false (and highlights the deepest node reached)
     * when the pointer does not exist in this JSON.
     */
    reveal(pointer, { scroll = true } = {}) {
        if (!this.root) return false;
        const { node, found } = this.#open(pointer);
        if (found) this.#expand(node);
        this.highlighted?.row.classList.remove('highlight');
        node.row.classList.add('highlight');
        this.highlighted = node;
        if (scroll) {
            node.row.scrollIntoView({ block: 'center' });
            this.#select(node, { focus: true });
        }
        return found;
    }

    #open(pointer) {
        const tokens = parsePointer(pointer);
        let node = this.root;
        let found = tokens !== null;
        for (const token of tokens ?? []) {
            if (!node.isOpenable) { found = false; break; }
            const index = node.indexOf(token);
            if (index < 0) { found = false; break; }
            this.#expand(node);
            while (node.children.length <= index) this.#renderMore(node);
            node = node.children[index];
        }
        return { node, found };
    }

    #select(node, { focus }) {
        if (this.selected && this.selected !== node) {
            this.selected.row.classList.remove('selected');
            this.selected.row.setAttribute('tabindex', '-1');
            this.selected.row.removeAttribute('aria-selected');
        }
        this.selected = node;
        node.row.classList.add('selected');
        node.row.setAttribute('tabindex', '0');
        node.row.setAttribute('aria-selected', 'true');
        if (focus) node.row.focus({ preventScroll: true });
        this.onChange();
    }

    // Search ---------------------------------------------------------------------------------------

    /** Finds `query` in `scope` (search.js `scopes`); marks rendered rows. `{total, listed}`. */
    setSearch(query, scope) {
        if (!this.root) return { total: 0, listed: 0 };
        const { pointers, total } = search(this.root.value, query, scope, this.classNames);
        this.query = query;
        this.matches = pointers;
        this.matchSet = new Set(pointers);
        this.ancestors = ancestorsOf(pointers);
        this.matchTotal = total;
        this.current = -1;
        for (const node of this.#rendered()) this.#fill(node);
        if (this.filtering) this.#revealForFilter();
        this.onChange();
        return { total, listed: pointers.length };
    }

    /** Reveals the next (`+1`) or previous (`-1`) match; returns its index, or -1 when none. */
    step(delta) {
        if (!this.matches.length) return -1;
        const count = this.matches.length;
        this.current = this.current < 0 ? (delta > 0 ? 0 : count - 1) : (this.current + delta + count) % count;
        this.reveal(this.matches[this.current]);
        this.onChange();
        return this.current;
    }

    /** Shows only the matches, the way to them and what is inside them. */
    setFilter(on) {
        this.filtering = on;
        this.container.classList.toggle('filtering', on);
        if (on) this.#revealForFilter();
    }

    #revealForFilter() {
        for (const pointer of this.matches.slice(0, FILTER_REVEALS)) this.#open(pointer);
    }

    /** Every rendered node, parents first. */
    *#rendered() {
        if (!this.root) return;
        const stack = [this.root];
        while (stack.length) {
            const node = stack.pop();
            yield node;
            stack.push(...node.children);
        }
    }

    // Rows -----------------------------------------------------------------------------------------

    /** (Re)builds a row's content: toggle, key, value; search marks and filter classes. */
    #fill(node) {
        const row = node.row;
        row.replaceChildren();
        this.nodeByRow.set(row, node);
        const query = this.query;
        if (node.isOpenable) {
            row.append(el('span', { className: 'toggle', text: node.expanded ? '▾' : '▸', attrs: { 'aria-hidden': 'true' } }));
        } else {
            row.append(el('span', { className: 'toggle-space' }));
        }
        if (node.key !== null) {
            const label = el('span', { className: typeof node.key === 'number' ? 'index' : 'key' });
            const text = typeof node.key === 'number' ? String(node.key) : JSON.stringify(node.key);
            if (query && typeof node.key === 'string') label.append(...marked(text, query));
            else label.textContent = text;
            row.append(label, el('span', { className: 'colon', text: ': ' }));
        }
        row.append(this.#describe(node, query));
        const match = this.matchSet.has(node.pointer);
        row.classList.toggle('match', match);
        node.li.classList.toggle('keep', match || this.ancestors.has(node.pointer));
        node.li.classList.toggle('match-node', match);
    }

    /** The one-line view of a value: scalars in full, containers as a summary, references as links. */
    #describe(node, query) {
        const value = node.value;
        const uid = node.uid;
        if (uid !== null) {
            const target = this.root.value.$objects?.[uid];
            const preview = target === undefined ? '(no such object)'
                : isContainer(target) ? (classOf(target, this.classNames)
                    ?? (typeof target.$classname === 'string' ? `class ${target.$classname}` : 'object'))
                    : JSON.stringify(target).slice(0, 80);
            return el('span', { className: 'reference' },
                el('button', { className: 'link uid-link', text: `$uid ${uid}`, dataset: { uid }, attrs: { type: 'button', tabindex: '-1' } }),
                el('span', { className: 'preview', text: ` → ${preview}` }));
        }
        if (!isContainer(value)) {
            const type = value === null ? 'null' : typeof value === 'object' ? 'number' : typeof value;
            const text = typeof value === 'string' ? JSON.stringify(value) : scalarText(value);
            const span = el('span', { className: `value ${type}` });
            if (query) span.append(...marked(text, query));
            else span.textContent = text;
            const note = typeof value === 'string' ? dateNote(value, this.utc) : null;
            return note === null ? span : el('span', {}, span, el('span', { className: 'date-note', text: ` ${note}` }));
        }
        if (Array.isArray(value)) {
            return el('span', { className: 'summary', text: `[${value.length} item${value.length === 1 ? '' : 's'}]` });
        }
        const keys = Object.keys(value);
        const className = classOf(value, this.classNames);
        const reference = typeof value.$ref === 'string' ? ` → ${value.$ref}` : '';
        const summary = el('span', { className: 'summary' }, '{');
        if (className !== null) {
            const name = el('span', { className: 'class-name' });
            if (query) name.append(...marked(className, query));
            else name.textContent = className;
            summary.append(name, ', ');
        }
        summary.append(`${keys.length} key${keys.length === 1 ? '' : 's'}}${reference}`);
        return summary;
    }

    /** Shows dates in local time (false) or only as the UTC text the JSON holds (true). */
    setUTC(utc) {
        this.utc = utc;
        for (const node of this.#rendered()) this.#fill(node);
    }

    #expand(node) {
        if (!node.isOpenable || node.expanded) return;
        node.expanded = true;
        node.list.hidden = false;
        node.row.setAttribute('aria-expanded', 'true');
        node.row.querySelector('.toggle').textContent = '▾';
        if (node.children.length === 0) this.#renderMore(node);
    }

    #collapse(node) {
        if (!node.isOpenable || !node.expanded) return;
        node.expanded = false;
        node.list.hidden = true;
        node.row.setAttribute('aria-expanded', 'false');
        node.row.querySelector('.toggle').textContent = '▸';
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
            const child = new TreeNode(value, key, `${node.pointer}/${escapeToken(key)}`, node);
            this.#fill(child);
            node.children.push(child);
            fragment.append(child.li);
        }
        if (end < entries.length) {
            const left = entries.length - end;
            node.more = el('li', { className: 'more-row' },
                el('button', { className: 'more', text: `show ${Math.min(PAGE_SIZE, left)} more (${left} not shown)`, attrs: { type: 'button', tabindex: '-1' } }));
            this.nodeByRow.set(node.more.firstChild, node);
            fragment.append(node.more);
        }
        node.list.append(fragment);
    }

    // Events ---------------------------------------------------------------------------------------

    #onClick(event) {
        const target = event.target;
        if (!(target instanceof Element)) return;
        if (target.classList.contains('more')) {
            const node = this.nodeByRow.get(target);
            if (node) this.#showMore(node, target);
            return;
        }
        const row = target.closest('.row');
        const node = row ? this.nodeByRow.get(row) : null;
        if (!node) return;
        if (target.classList.contains('uid-link')) {
            this.#select(node, { focus: false });
            this.follow(node.uid);
        } else if (target.classList.contains('toggle')) {
            this.#toggle(node);
            this.#select(node, { focus: true });
        } else {
            this.#select(node, { focus: true });
        }
    }

    #toggle(node) {
        if (node.expanded) this.#collapse(node);
        else this.#expand(node);
    }

    /** Renders the next page and keeps the focus in the tree (on the first new row). */
    #showMore(node, button) {
        const before = node.children.length;
        const hadFocus = document.activeElement === button;
        this.#renderMore(node);
        if (hadFocus && node.children[before]) this.#select(node.children[before], { focus: true });
    }

    /** Rows and "show more" buttons a user can see, in order. */
    #visibleStops() {
        return [...this.container.querySelectorAll('.row, .more')].filter((stop) => stop.checkVisibility());
    }

    #onKey(event) {
        const target = event.target;
        if (!(target instanceof Element) || event.altKey || event.ctrlKey || event.metaKey) return;
        if (target.classList.contains('more')) {
            if (event.key === 'ArrowUp' || event.key === 'ArrowDown') this.#moveFrom(target, event.key === 'ArrowDown' ? 1 : -1, event);
            return;
        }
        const node = this.nodeByRow.get(target);
        if (!node || !target.classList.contains('row')) return;
        switch (event.key) {
        case 'ArrowDown': this.#moveFrom(target, 1, event); return;
        case 'ArrowUp': this.#moveFrom(target, -1, event); return;
        case 'Home': this.#moveTo(this.#visibleStops()[0], event); return;
        case 'End': this.#moveTo(this.#visibleStops().at(-1), event); return;
        case 'ArrowRight':
            if (node.uid !== null) this.follow(node.uid);
            else if (node.isOpenable && !node.expanded) this.#expand(node);
            else if (node.children[0]) this.#select(node.children[0], { focus: true });
            break;
        case 'ArrowLeft':
            if (node.expanded) this.#collapse(node);
            else if (node.parent) this.#select(node.parent, { focus: true });
            break;
        case 'Enter':
        case ' ':
            if (node.uid !== null) this.follow(node.uid);
            else this.#toggle(node);
            break;
        case 'Backspace':
            this.back();
            break;
        case '*':
            this.expandSubtree(node);
            break;
        default: return;
        }
        event.preventDefault();
    }

    #moveFrom(stop, delta, event) {
        const stops = this.#visibleStops();
        const index = stops.indexOf(stop);
        this.#moveTo(stops[index + delta], event);
    }

    #moveTo(stop, event) {
        event.preventDefault();
        if (!stop) return;
        if (stop.classList.contains('more')) {
            stop.focus();
            return;
        }
        const node = this.nodeByRow.get(stop);
        if (node) {
            this.#select(node, { focus: true });
            stop.scrollIntoView({ block: 'nearest' });
        }
    }
}
