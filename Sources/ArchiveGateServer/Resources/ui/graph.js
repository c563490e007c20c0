// The object graph of a typed rendering, drawn by the page as SVG (no library, nothing loaded):
// the same graph as `archivegate convert --format dot` — objects reachable from `$top` as nodes
// (class names, strings quoted, numbers as they are), field keys on edges (`NS.objects[2]`),
// `$null` and class references left out, objects named by a violation in red (a refused object
// the redacted rendering cut off from `$top` is drawn as a root of its own).
// Laid out in columns by distance from `$top`; drag or arrow keys pan, the wheel or +/− zoom;
// a node opens its object in the tree. Every label is a text node.

import { isContainer, uidOf, typedClassNames } from './search.js';

const SVG = 'http://www.w3.org/2000/svg';
/** Drawn at most (breadth first from `$top`); the rest is counted. */
export const MAX_NODES = 1500;
const COLUMN = 240;
const ROW = 34;
const LABEL_CHARS = 28;

function svg(tag, attributes = {}, text) {
    const node = document.createElementNS(SVG, tag);
    for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, String(value));
    if (text !== undefined) node.textContent = text;
    return node;
}

function shorten(text) {
    return text.length > LABEL_CHARS ? `${text.slice(0, LABEL_CHARS - 1)}…` : text;
}

/** The label DOT gives an object: its class, a quoted string, or the scalar. */
function labelOf(object, classNames) {
    if (typeof object === 'string') return JSON.stringify(object);
    if (!isContainer(object)) return String(object);
    const uid = uidOf(object.$class);
    if (uid !== null) return classNames.get(uid) ?? `class #${uid}`;
    return Array.isArray(object) ? 'array' : 'object';
}

/** References out of an object: `[key, uid]`, arrays of references as `key[i]`; never `$class` or `$null`. */
function referencesOf(object, objects) {
    const out = [];
    if (!isContainer(object) || Array.isArray(object)) return out;
    const add = (label, value) => {
        const uid = uidOf(value);
        if (uid !== null && uid < objects.length && objects[uid] !== '$null') out.push([label, uid]);
    };
    for (const [key, value] of Object.entries(object)) {
        if (key === '$class') continue;
        if (Array.isArray(value)) value.forEach((item, index) => add(`${key}[${index}]`, item));
        else add(key, value);
    }
    return out;
}

/**
 * `{nodes: [{id, uid, label, depth}], edges: [{from, to, label}], total}` of a typed document;
 * `id` is `top` or `n<uid>` as in the DOT output. `roots`: uids drawn even when `$top` does not
 * reach them. Null when the document is not typed.
 */
export function objectGraph(document, roots = []) {
    const objects = isContainer(document) ? document.$objects : null;
    const top = isContainer(document) ? document.$top : null;
    if (!Array.isArray(objects) || !isContainer(top)) return null;
    const classNames = typedClassNames(document);
    const nodes = [{ id: 'top', uid: null, label: '$top', depth: 0 }];
    const edges = [];
    const seen = new Map();
    const queue = [];
    const visit = (from, label, uid, depth) => {
        if (!seen.has(uid)) {
            seen.set(uid, depth);
            queue.push(uid);
        }
        edges.push({ from, to: `n${uid}`, label });
    };
    for (const [key, value] of Object.entries(top)) {
        const uid = uidOf(value);
        if (uid !== null && uid < objects.length && objects[uid] !== '$null') visit('top', key, uid, 1);
    }
    for (const uid of roots) {
        if (!seen.has(uid) && uid > 0 && uid < objects.length) {
            seen.set(uid, 1);
            queue.push(uid);
        }
    }
    for (let head = 0; head < queue.length; head += 1) {
        const uid = queue[head];
        const depth = seen.get(uid);
        nodes.push({ id: `n${uid}`, uid, label: labelOf(objects[uid], classNames), depth });
        for (const [label, target] of referencesOf(objects[uid], objects)) visit(`n${uid}`, label, target, depth + 1);
    }
    return { nodes, edges, total: nodes.length };
}

export class GraphView {
    /** `open(uid)` shows an object in the tree. */
    constructor(container, open) {
        this.container = container;
        this.open = open;
        this.view = { x: 0, y: 0, width: 800, height: 600 };
        this.drag = null;
    }

    /** Draws `document`'s graph; `red`: the uids violations name. Returns the counts drawn. */
    draw(document, red) {
        this.container.replaceChildren();
        const graph = objectGraph(document, [...red]);
        if (!graph) return null;
        const nodes = graph.nodes.slice(0, MAX_NODES);
        const drawn = new Set(nodes.map((node) => node.id));
        const edges = graph.edges.filter((edge) => drawn.has(edge.from) && drawn.has(edge.to));
        const rows = new Map();
        const place = new Map();
        for (const node of nodes) {
            const row = rows.get(node.depth) ?? 0;
            rows.set(node.depth, row + 1);
            place.set(node.id, { x: node.depth * COLUMN + 10, y: row * ROW + 10, width: 12 + 7 * shorten(node.label).length });
        }
        const root = svg('svg', { id: 'graph-svg', class: 'graph', role: 'img', 'aria-label': `Object graph: ${nodes.length} nodes, ${edges.length} edges` });
        const defs = svg('defs', {});
        defs.append(this.#marker());
        root.append(defs);
        const edgeLayer = svg('g', { class: 'edges' });
        const nodeLayer = svg('g', { class: 'nodes' });
        for (const edge of edges) {
            const from = place.get(edge.from);
            const to = place.get(edge.to);
            const x1 = from.x + from.width;
            const y1 = from.y + 12;
            const x2 = to.x;
            const y2 = to.y + 12;
            const group = svg('g', { class: 'graph-edge', 'data-from': edge.from, 'data-to': edge.to });
            group.append(svg('path', { d: `M${x1},${y1} C${x1 + 60},${y1} ${x2 - 60},${y2} ${x2},${y2}`, 'marker-end': 'url(#graph-arrow)' }),
                svg('text', { x: (x1 + x2) / 2, y: (y1 + y2) / 2 - 3, 'text-anchor': 'middle' }, shorten(edge.label)));
            edgeLayer.append(group);
        }
        for (const node of nodes) {
            const box = place.get(node.id);
            const bad = node.uid !== null && red.has(node.uid);
            const group = svg('g', {
                class: `graph-node${bad ? ' bad' : ''}${node.uid === null ? ' top' : ''}`, 'data-id': node.id,
                transform: `translate(${box.x},${box.y})`,
            });
            if (node.uid !== null) {
                group.dataset.uid = String(node.uid);
                group.setAttribute('tabindex', '0');
                group.setAttribute('role', 'button');
                group.setAttribute('aria-label', `open object ${node.uid}`);
            }
            group.append(svg('title', {}, node.uid === null ? '$top' : `$objects/${node.uid}: ${node.label}`),
                svg('rect', { width: box.width, height: 24, rx: 4 }), svg('text', { x: 6, y: 16 }, shorten(node.label)));
            nodeLayer.append(group);
        }
        root.append(edgeLayer, nodeLayer);
        this.container.append(root);
        this.svg = root;
        const width = Math.max(...[...place.values()].map((box) => box.x + box.width)) + 20;
        const height = Math.max(...[...place.values()].map((box) => box.y + 24)) + 20;
        this.bounds = { width, height };
        this.fit();
        root.addEventListener('click', (event) => this.#openFrom(event.target));
        root.addEventListener('keydown', (event) => this.#onKey(event));
        root.addEventListener('pointerdown', (event) => this.#startDrag(event));
        root.addEventListener('pointermove', (event) => this.#moveDrag(event));
        root.addEventListener('pointerup', () => { this.drag = null; });
        root.addEventListener('wheel', (event) => {
            event.preventDefault();
            this.zoom(event.deltaY < 0 ? 1.2 : 1 / 1.2);
        }, { passive: false });
        return { nodes: nodes.length, edges: edges.length, total: graph.total };
    }

    #marker() {
        const marker = svg('marker', { id: 'graph-arrow', viewBox: '0 0 10 10', refX: 10, refY: 5, markerWidth: 6, markerHeight: 6, orient: 'auto' });
        marker.append(svg('path', { d: 'M0,0 L10,5 L0,10 z' }));
        return marker;
    }

    /** Shows the whole graph (at most 1:1 for a small one). */
    fit() {
        if (!this.svg) return;
        const box = this.container.getBoundingClientRect();
        const aspect = box.height > 0 && box.width > 0 ? box.height / box.width : 0.6;
        const width = Math.max(this.bounds.width, this.bounds.height / aspect, 400);
        this.view = { x: 0, y: 0, width, height: width * aspect };
        this.#apply();
    }

    /** `factor` > 1 zooms in, about the centre. */
    zoom(factor) {
        const { x, y, width, height } = this.view;
        const next = { width: width / factor, height: height / factor };
        this.view = { x: x + (width - next.width) / 2, y: y + (height - next.height) / 2, ...next };
        this.#apply();
    }

    pan(dx, dy) {
        this.view.x += dx * this.view.width;
        this.view.y += dy * this.view.height;
        this.#apply();
    }

    #apply() {
        const { x, y, width, height } = this.view;
        this.svg.setAttribute('viewBox', `${x} ${y} ${width} ${height}`);
    }

    #openFrom(target) {
        const node = target instanceof Element ? target.closest('.graph-node[data-uid]') : null;
        if (node && !this.moved) this.open(Number(node.dataset.uid));
        this.moved = false;
    }

    #onKey(event) {
        const steps = { ArrowLeft: [-0.1, 0], ArrowRight: [0.1, 0], ArrowUp: [0, -0.1], ArrowDown: [0, 0.1] };
        if ((event.key === 'Enter' || event.key === ' ') && event.target instanceof Element && event.target.matches('.graph-node[data-uid]')) {
            event.preventDefault();
            this.open(Number(event.target.dataset.uid));
        } else if (event.key === '+' || event.key === '=') {
            this.zoom(1.2);
        } else if (event.key === '-') {
            this.zoom(1 / 1.2);
        } else if (steps[event.key] && event.shiftKey) {
            event.preventDefault();
            this.pan(...steps[event.key]);
        }
    }

    #startDrag(event) {
        if (event.button !== 0) return;
        this.drag = { x: event.clientX, y: event.clientY, view: { ...this.view } };
        this.moved = false;
    }

    #moveDrag(event) {
        if (!this.drag) return;
        const box = this.svg.getBoundingClientRect();
        const scale = this.view.width / Math.max(1, box.width);
        const dx = event.clientX - this.drag.x;
        const dy = event.clientY - this.drag.y;
        if (Math.abs(dx) + Math.abs(dy) > 3) this.moved = true;
        this.view = { ...this.drag.view, x: this.drag.view.x - dx * scale, y: this.drag.view.y - dy * scale };
        this.#apply();
    }
}
