// The tenant's stored results (GET /v1/archives), newest first, a page at a time.

import { el, clear, byId, linkButton } from './dom.js';
import { listStored } from './api.js';

const PAGE_SIZE = 10;

export class StoredList {
    /** `open(summary)` is called when the user opens a result. */
    constructor(open) {
        this.open = open;
        this.rows = byId('stored-rows');
        this.status = byId('stored-status');
        this.previous = byId('stored-previous');
        this.next = byId('stored-next');
        this.pageLabel = byId('stored-page');
        this.cursors = [null];    // cursors[i] loads page i
        this.nextCursor = null;
        this.previous.addEventListener('click', () => this.#load(this.cursors.length - 2, true));
        this.next.addEventListener('click', () => this.#load(this.cursors.length, false));
        byId('refresh-stored').addEventListener('click', () => this.reload());
    }

    /** Back to the first page. */
    reload() {
        this.cursors = [null];
        return this.#load(0, true);
    }

    async #load(page, backwards) {
        const cursor = backwards ? this.cursors[page] : this.nextCursor;
        if (page < 0 || (!backwards && !cursor)) return;
        this.status.textContent = 'Loading…';
        try {
            const result = await listStored(PAGE_SIZE, cursor);
            if (backwards) this.cursors = this.cursors.slice(0, page + 1);
            else this.cursors.push(cursor);
            this.nextCursor = result.nextCursor ?? null;
            this.#render(result.items ?? []);
            this.status.textContent = '';
        } catch (error) {
            this.status.textContent = `${error.problem?.code ?? 'error'}: ${error.message}`;
        }
        this.previous.disabled = this.cursors.length <= 1;
        this.next.disabled = !this.nextCursor;
        this.pageLabel.textContent = `Page ${this.cursors.length}`;
    }

    #render(items) {
        clear(this.rows);
        if (items.length === 0) {
            this.rows.append(el('tr', {}, el('td', { className: 'empty', text: 'Nothing stored yet.', attrs: { colspan: '5' } })));
            return;
        }
        for (const item of items) {
            const created = typeof item.createdAt === 'string' ? item.createdAt.replace('T', ' ').replace(/\.\d+Z$/, 'Z') : '';
            this.rows.append(el('tr', { dataset: { id: item.id } },
                el('td', { className: 'created', text: created, title: `expires ${item.expiresAt}` }),
                el('td', { className: 'source', text: item.name ?? item.source, title: `${item.name ? `${item.source}, ` : ''}sha256 ${item.sha256}, ${item.size} bytes` }),
                el('td', { text: item.mode }),
                el('td', { text: item.hasJSON ? 'yes' : 'no' }),
                el('td', {}, linkButton('Open', () => this.open(item), 'link open-stored'))));
        }
    }
}
