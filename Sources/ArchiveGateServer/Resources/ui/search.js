// Search of the JSON being shown: keys, values and classes, case-insensitive substrings. It walks
// the parsed value, not the DOM (most of a large tree is never rendered), with an explicit stack
// (an archive decides how deep its JSON is), in document order.

import { escapeToken } from './paths.js';

/** Matches past this many are counted but not listed (every listed one can be revealed). */
export const MAX_LISTED = 10_000;

export const scopes = ['all', 'keys', 'values', 'classes'];

function isRaw(value) {
    return typeof JSON.isRawJSON === 'function' && JSON.isRawJSON(value);
}

export function isContainer(value) {
    return value !== null && typeof value === 'object' && !isRaw(value);
}

/** The text a scalar shows as (strings without quotes). */
export function scalarText(value) {
    if (isRaw(value)) return value.rawJSON;
    return value === null ? 'null' : String(value);
}

/** Typed mode: `$objects` index → `$classname` of the class objects (empty in plain mode). */
export function typedClassNames(document) {
    const names = new Map();
    const objects = isContainer(document) && !Array.isArray(document) ? document.$objects : null;
    if (!Array.isArray(objects)) return names;
    objects.forEach((object, uid) => {
        if (isContainer(object) && typeof object.$classname === 'string') names.set(uid, object.$classname);
    });
    return names;
}

/** `{"$uid": n}` (typed mode's reference), or null. */
export function uidOf(value) {
    if (!isContainer(value) || Array.isArray(value)) return null;
    const keys = Object.keys(value);
    return keys.length === 1 && keys[0] === '$uid' && Number.isSafeInteger(value.$uid) && value.$uid >= 0 ? value.$uid : null;
}

/** The class an object is an instance of: plain `"$class": "Name"`, typed `"$class": {"$uid": n}`. */
export function classOf(value, classNames) {
    if (!isContainer(value) || Array.isArray(value)) return null;
    if (typeof value.$class === 'string') return value.$class;
    const uid = uidOf(value.$class);
    return uid === null ? null : classNames.get(uid) ?? null;
}

/**
 * The pointers of the rows that match `query` in `scope`, in document order: a key match or a
 * value match is the entry's row; a class match is the instance's row. `{pointers, total}`.
 */
export function search(document, query, scope, classNames) {
    const needle = query.toLowerCase();
    const pointers = [];
    let total = 0;
    if (needle === '') return { pointers, total };
    const keys = scope === 'all' || scope === 'keys';
    const values = scope === 'all' || scope === 'values';
    const classes = scope === 'all' || scope === 'classes';
    const stack = [[document, '', null]];
    while (stack.length) {
        const [value, pointer, key] = stack.pop();
        let hit = keys && typeof key === 'string' && key.toLowerCase().includes(needle);
        if (isContainer(value)) {
            if (!hit && classes) hit = classOf(value, classNames)?.toLowerCase().includes(needle) ?? false;
            const entries = Array.isArray(value) ? value.map((item, index) => [index, item]) : Object.entries(value);
            for (let index = entries.length - 1; index >= 0; index -= 1) {
                const [childKey, child] = entries[index];
                stack.push([child, `${pointer}/${escapeToken(childKey)}`, Array.isArray(value) ? null : childKey]);
            }
        } else if (!hit && values) {
            hit = scalarText(value).toLowerCase().includes(needle);
        }
        if (hit) {
            total += 1;
            if (pointers.length < MAX_LISTED) pointers.push(pointer);
        }
    }
    return { pointers, total };
}

/** Every pointer on the way to each of `pointers` (the rows a filtered tree keeps open). */
export function ancestorsOf(pointers) {
    const ancestors = new Set(['']);
    for (const pointer of pointers) {
        let end = pointer.lastIndexOf('/');
        while (end > 0) {
            const prefix = pointer.slice(0, end);
            if (ancestors.has(prefix)) break;
            ancestors.add(prefix);
            end = prefix.lastIndexOf('/');
        }
    }
    return ancestors;
}

/** `text` as text nodes, each case-insensitive occurrence of `query` in a `<mark>` (no markup parsed). */
export function marked(text, query) {
    const parts = [];
    const lower = text.toLowerCase();
    const needle = query.toLowerCase();
    if (lower.length !== text.length) {
        // Lower-casing changed the length (e.g. "İ"): offsets would not line up, so mark it all.
        if (!lower.includes(needle) || needle === '') return [document.createTextNode(text)];
        const mark = document.createElement('mark');
        mark.textContent = text;
        return [mark];
    }
    let start = 0;
    let found = needle === '' ? -1 : lower.indexOf(needle);
    while (found >= 0) {
        if (found > start) parts.push(document.createTextNode(text.slice(start, found)));
        const mark = document.createElement('mark');
        mark.textContent = text.slice(found, found + needle.length);
        parts.push(mark);
        start = found + needle.length;
        found = lower.indexOf(needle, start);
    }
    if (start < text.length || parts.length === 0) parts.push(document.createTextNode(text.slice(start)));
    return parts;
}
