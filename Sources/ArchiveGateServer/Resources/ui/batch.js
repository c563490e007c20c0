// Several files at once (many picked or dropped, or a folder): each is validated in turn and
// listed with its verdict; one is open in the result view at a time.

import { el, clear, byId } from './dom.js';
import { validateBytes, ProblemError } from './api.js';

/** A dropped folder is read at most this deep and this many files far (the tab's memory is finite). */
const MAX_FILES = 500;
const MAX_DEPTH = 16;

/** Files of a drop: plain files, and the files inside dropped folders (breadth first, no recursion). */
export async function droppedFiles(dataTransfer) {
    const entries = [...(dataTransfer?.items ?? [])].map((item) => item.webkitGetAsEntry?.()).filter(Boolean);
    if (entries.length === 0) return [...(dataTransfer?.files ?? [])].slice(0, MAX_FILES);
    const files = [];
    const queue = entries.map((entry) => [entry, 0]);
    for (let head = 0; head < queue.length && files.length < MAX_FILES; head += 1) {
        const [entry, depth] = queue[head];
        if (entry.isFile) {
            files.push(await new Promise((resolve, reject) => entry.file(resolve, reject)));
        } else if (entry.isDirectory && depth < MAX_DEPTH) {
            for (const child of await readDirectory(entry)) queue.push([child, depth + 1]);
        }
    }
    return files;
}

/** All entries of a directory (the reader answers in chunks until it answers none). */
async function readDirectory(directory) {
    const reader = directory.createReader();
    const all = [];
    for (;;) {
        const chunk = await new Promise((resolve, reject) => reader.readEntries(resolve, reject));
        if (chunk.length === 0 || all.length >= MAX_FILES) return all;
        all.push(...chunk);
    }
}

function verdictOf(report) {
    return report.valid ? 'valid' : 'rejected';
}

export class BatchList {
    /** `open(file)` shows one file ({name, bytes}) in the result view. */
    constructor(open) {
        this.open = open;
        this.panel = byId('batch-panel');
        this.list = byId('batch-list');
        this.summary = byId('batch-summary');
        this.items = [];
        this.ticket = 0;
    }

    /** Lists `files` (File objects), validates each in turn and opens the first. */
    async load(files) {
        this.ticket += 1;
        const ticket = this.ticket;
        const sorted = [...files].sort((a, b) => (a.webkitRelativePath || a.name).localeCompare(b.webkitRelativePath || b.name));
        this.items = sorted.map((file) => ({ file, name: file.webkitRelativePath || file.name, bytes: null, verdict: null }));
        this.panel.hidden = false;
        clear(this.list);
        for (const item of this.items) {
            item.badge = el('span', { className: 'badge pending', text: '…' });
            item.button = el('button', { className: 'link batch-open', text: item.name, attrs: { type: 'button' } });
            item.button.addEventListener('click', () => this.#open(item));
            item.li = el('li', { className: 'batch-item' }, item.badge, ' ', item.button);
            this.list.append(item.li);
        }
        this.#summarise();
        for (const [index, item] of this.items.entries()) {
            if (ticket !== this.ticket) return;
            item.bytes = new Uint8Array(await item.file.arrayBuffer());
            try {
                item.verdict = verdictOf(await validateBytes(item.bytes));
            } catch (error) {
                const status = error instanceof ProblemError ? error.status : 0;
                item.verdict = status === 422 || status === 413 ? 'malformed' : 'error';
                item.badge.title = `${error.problem?.code ?? 'error'}: ${error.message}`;
            }
            if (ticket !== this.ticket) return;
            item.badge.textContent = item.verdict;
            item.badge.className = `badge ${item.verdict}`;
            item.li.dataset.verdict = item.verdict;
            this.#summarise();
            if (index === 0) this.#open(item);
        }
    }

    /** Hides the list (a single file was chosen). */
    hide() {
        this.ticket += 1;
        this.items = [];
        clear(this.list);
        this.panel.hidden = true;
    }

    #open(item) {
        if (!item.bytes) return;
        for (const other of this.items) other.button.removeAttribute('aria-current');
        item.button.setAttribute('aria-current', 'true');
        this.open({ name: item.name, bytes: item.bytes });
    }

    #summarise() {
        const counts = new Map();
        for (const item of this.items) counts.set(item.verdict ?? 'pending', (counts.get(item.verdict ?? 'pending') ?? 0) + 1);
        const parts = ['valid', 'rejected', 'malformed', 'error', 'pending'].filter((kind) => counts.has(kind))
            .map((kind) => `${counts.get(kind)} ${kind}`);
        this.summary.textContent = `${this.items.length} file${this.items.length === 1 ? '' : 's'}: ${parts.join(', ')}`;
        this.summary.dataset.done = String(this.items.every((item) => item.verdict !== null));
    }
}
