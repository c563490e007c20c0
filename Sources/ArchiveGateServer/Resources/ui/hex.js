// A hex view of data: NSData is base64 in the JSON (plain mode a string, typed mode a tagged
// object); the view decodes it in the page and shows offset, bytes and printable ASCII, as text.

/** Shown at most; the rest is counted. */
const MAX_BYTES = 64 * 1024;
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;

/** The bytes a base64 value holds (a string, or a typed `{"$data": "…"}`-like tag); null if none. */
export function dataBytes(value) {
    let text = value;
    if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
        const entries = Object.entries(value);
        text = entries.length === 1 && entries[0][0].startsWith('$') ? entries[0][1] : null;
    }
    if (typeof text !== 'string' || text.length === 0 || !BASE64.test(text)) return null;
    const binary = atob(text);
    const bytes = new Uint8Array(binary.length);
    for (let index = 0; index < binary.length; index += 1) bytes[index] = binary.charCodeAt(index);
    return bytes;
}

/** `00000000  62 70 6c 69 73 74 30 30  …  |bplist00…|`, 16 bytes a line. */
export function hexDump(bytes) {
    const lines = [];
    const shown = Math.min(bytes.length, MAX_BYTES);
    for (let offset = 0; offset < shown; offset += 16) {
        const row = bytes.subarray(offset, Math.min(offset + 16, shown));
        const hex = [...row].map((byte) => byte.toString(16).padStart(2, '0'));
        const left = hex.slice(0, 8).join(' ');
        const right = hex.slice(8).join(' ');
        const ascii = [...row].map((byte) => (byte >= 0x20 && byte < 0x7f ? String.fromCharCode(byte) : '.')).join('');
        lines.push(`${offset.toString(16).padStart(8, '0')}  ${left.padEnd(23)}  ${right.padEnd(23)}  |${ascii}|`);
    }
    if (bytes.length > shown) lines.push(`… ${bytes.length - shown} more bytes not shown`);
    return `${bytes.length} byte${bytes.length === 1 ? '' : 's'}\n${lines.join('\n')}`;
}
