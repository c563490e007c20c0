// DOM helpers. Archive content only ever reaches the page as text nodes (textContent), never as
// markup: nothing is parsed as HTML, no attribute is built from archive data except data-* values.

/**
 * Creates an element. `props`: `className`, `text` (textContent), `attrs` (fixed, page-chosen
 * attributes), `dataset`, `hidden`, `title`. `children`: nodes or strings (as text nodes).
 */
export function el(tag, props = {}, ...children) {
    const node = document.createElement(tag);
    if (props.className) node.className = props.className;
    if (props.text !== undefined) node.textContent = String(props.text);
    if (props.title !== undefined) node.title = String(props.title);
    if (props.hidden) node.hidden = true;
    for (const [name, value] of Object.entries(props.attrs ?? {})) node.setAttribute(name, value);
    for (const [name, value] of Object.entries(props.dataset ?? {})) node.dataset[name] = String(value);
    for (const child of children) {
        if (child === null || child === undefined) continue;
        node.append(typeof child === 'string' ? document.createTextNode(child) : child);
    }
    return node;
}

/** A button that looks like a link (no href: nothing from an archive ever becomes a URL). */
export function linkButton(text, onClick, className = 'link') {
    const button = el('button', { className, text, attrs: { type: 'button' } });
    button.addEventListener('click', onClick);
    return button;
}

export function clear(node) {
    node.replaceChildren();
}

export function byId(id) {
    const node = document.getElementById(id);
    if (!node) throw new Error(`missing #${id}`);
    return node;
}
