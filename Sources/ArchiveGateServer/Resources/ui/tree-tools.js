// The controls around the JSON tree: find (with a match count, previous/next and "only matches"),
// copy the selected row's value, JSON pointer or jq path, expand and collapse (all or the selected
// subtree), "back" after following a $uid link, and local or UTC dates.

import { byId } from './dom.js';
import { copyText } from './paths.js';
import { EXPAND_BUDGET } from './tree.js';
import { dataBytes, hexDump } from './hex.js';

const SEARCH_DELAY_MS = 150;

export class TreeTools {
    constructor(tree) {
        this.tree = tree;
        this.timer = null;
        this.input = byId('tree-search');
        this.scope = byId('search-scope');
        this.count = byId('search-count');
        this.input.addEventListener('input', () => this.#searchSoon());
        this.scope.addEventListener('change', () => this.searchAgain());
        byId('search-form').addEventListener('submit', (event) => {
            event.preventDefault();
            this.#step(1);
        });
        byId('search-previous').addEventListener('click', () => this.#step(-1));
        byId('search-filter').addEventListener('change', (event) => this.tree.setFilter(event.target.checked));
        byId('tree-back').addEventListener('click', () => this.tree.back());
        byId('expand-tree').addEventListener('click', () => this.#expand(this.tree.root));
        byId('collapse-tree').addEventListener('click', () => this.tree.collapseAll());
        byId('expand-subtree').addEventListener('click', () => this.#expand(this.tree.selected));
        byId('collapse-subtree').addEventListener('click', () => {
            if (this.tree.selected) this.tree.collapseSubtree(this.tree.selected);
        });
        byId('hex-toggle').addEventListener('click', (event) => {
            const on = event.currentTarget.getAttribute('aria-pressed') !== 'true';
            event.currentTarget.setAttribute('aria-pressed', String(on));
            this.#showHex();
        });
        byId('utc-dates').addEventListener('change', (event) => this.tree.setUTC(event.target.checked));
        for (const [id, what, label] of [['copy-value', 'value', 'value'], ['copy-pointer', 'pointer', 'JSON pointer'], ['copy-jq', 'jq', 'jq path']]) {
            byId(id).addEventListener('click', () => this.#copy(what, label));
        }
    }

    /** Runs the current search over the tree being shown (a new document, or a new scope). */
    searchAgain() {
        clearTimeout(this.timer);
        const query = this.input.value;
        const { total, listed } = this.tree.setSearch(query, this.scope.value);
        this.tree.setFilter(byId('search-filter').checked);
        this.count.textContent = query === '' ? ''
            : total === 0 ? 'no matches'
                : `${total} match${total === 1 ? '' : 'es'}${listed < total ? ` (first ${listed} listed)` : ''}`;
        this.count.dataset.count = String(total);
        this.count.dataset.query = `${this.scope.value}:${query}`;
        this.update();
    }

    /** Called by the tree whenever its selection, history or search changes. */
    update() {
        const tree = this.tree;
        byId('tree-back').disabled = !tree.canGoBack;
        byId('search-previous').disabled = tree.matches.length === 0;
        byId('search-next').disabled = tree.matches.length === 0;
        const pointer = tree.selected?.pointer;
        byId('selected-pointer').textContent = pointer === undefined ? '' : pointer === '' ? '(whole document)' : pointer;
        for (const id of ['copy-value', 'copy-pointer', 'copy-jq', 'expand-subtree', 'collapse-subtree']) {
            byId(id).disabled = !tree.selected;
        }
        this.#showHex();
    }

    /** With "Hex" on, the selected value's bytes when it is base64 data; else why not. */
    #showHex() {
        const view = byId('hex-view');
        const on = byId('hex-toggle').getAttribute('aria-pressed') === 'true';
        view.hidden = !on;
        if (!on) return;
        const bytes = this.tree.selected ? dataBytes(this.tree.selected.value) : null;
        view.textContent = bytes ? hexDump(bytes) : 'Select a data value (base64) to see its bytes.';
        view.dataset.bytes = bytes ? String(bytes.length) : '';
    }

    #searchSoon() {
        clearTimeout(this.timer);
        this.timer = setTimeout(() => this.searchAgain(), SEARCH_DELAY_MS);
    }

    #step(delta) {
        if (this.timer !== null && this.tree.query !== this.input.value) this.searchAgain();
        const index = this.tree.step(delta);
        if (index >= 0) this.count.textContent = `${index + 1} of ${this.tree.matchTotal}`;
    }

    #expand(node) {
        const complete = this.tree.expandSubtree(node);
        byId('tree-note').textContent = complete ? ''
            : `Stopped after ${EXPAND_BUDGET} rows so the page stays quick: expand deeper parts one at a time.`;
    }

    async #copy(what, label) {
        const addresses = this.tree.selectedAddresses();
        if (!addresses) return;
        const done = await copyText(addresses[what]);
        byId('copy-status').textContent = done ? `Copied the ${label}.` : `The browser refused the clipboard: ${label} not copied.`;
    }
}
