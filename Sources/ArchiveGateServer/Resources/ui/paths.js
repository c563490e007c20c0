// Addresses of a value in the JSON: RFC 6901 pointers (what reports use) and jq paths (what people
// paste into a shell), and the clipboard the page copies them to.

/** RFC 6901: "/a~1b/0" → ["a/b", "0"]; "" is the whole document; null when not a pointer. */
export function parsePointer(pointer) {
    if (pointer === '') return [];
    if (!pointer.startsWith('/')) return null;
    return pointer.slice(1).split('/').map((token) => token.replaceAll('~1', '/').replaceAll('~0', '~'));
}

export function escapeToken(token) {
    return String(token).replaceAll('~', '~0').replaceAll('/', '~1');
}

/** `.root.tags[0]`, `.["$objects"][3]`, `.` for the whole document; `steps`: [{key, inArray}…]. */
export function jqPath(steps) {
    let path = '';
    for (const { key, inArray } of steps) {
        if (inArray) path += `[${key}]`;
        else if (/^[A-Za-z_][A-Za-z0-9_]*$/.test(key)) path += `.${key}`;
        else path += `[${JSON.stringify(String(key))}]`;
    }
    return path.startsWith('.') ? path : `.${path}`;
}

/**
 * Puts `text` on the clipboard: the async Clipboard API where the page may use it, else a
 * selected off-screen text area and the copy command. Resolves to whether either worked.
 */
export async function copyText(text) {
    try {
        await navigator.clipboard.writeText(text);
        return true;
    } catch {
        const area = document.createElement('textarea');
        area.value = text;
        area.className = 'offscreen';
        area.setAttribute('readonly', '');
        document.body.append(area);
        area.select();
        let done = false;
        try { done = document.execCommand('copy'); } catch { done = false; }
        area.remove();
        return done;
    }
}
