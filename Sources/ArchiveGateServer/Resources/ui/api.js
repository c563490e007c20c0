// The /v1 calls the page makes. The API key lives in sessionStorage only (never a URL, cookie or
// persistent storage) and travels as `Authorization: Bearer` on each call.

const KEY_NAME = 'archivegate.apiKey';
const decoder = new TextDecoder();

export const apiKey = {
    get: () => sessionStorage.getItem(KEY_NAME) ?? '',
    set: (key) => sessionStorage.setItem(KEY_NAME, key),
    clear: () => sessionStorage.removeItem(KEY_NAME),
};

/** A failed call: the server's problem document (RFC 9457), or one made up for a network failure. */
export class ProblemError extends Error {
    constructor(status, problem) {
        super(problem.detail ?? problem.title ?? `HTTP ${status}`);
        this.status = status;
        this.problem = problem;
    }
}

async function call(path, { method = 'GET', body, contentType } = {}) {
    const key = apiKey.get();
    if (!key) {
        throw new ProblemError(0, { code: 'ui.no_key', title: 'No API key', detail: 'Enter your API key first.' });
    }
    const headers = { Authorization: `Bearer ${key}` };
    if (contentType) headers['Content-Type'] = contentType;
    let response;
    try {
        response = await fetch(path, { method, headers, body, credentials: 'omit', cache: 'no-store', referrerPolicy: 'no-referrer' });
    } catch (error) {
        throw new ProblemError(0, { code: 'ui.network', title: 'Network error', detail: String(error.message ?? error) });
    }
    if (!response.ok) {
        let problem;
        try {
            problem = await response.json();
        } catch {
            problem = { code: `http.${response.status}`, title: response.statusText, detail: `HTTP ${response.status}` };
        }
        throw new ProblemError(response.status, problem);
    }
    return response;
}

/**
 * Parses JSON keeping integers a double cannot hold exactly (the server writes up to 128 bits) as
 * `JSON.rawJSON` values, where the browser supports source access; otherwise plain `JSON.parse`.
 */
export function parseJSON(text) {
    if (typeof JSON.rawJSON !== 'function') return JSON.parse(text);
    return JSON.parse(text, (key, value, context) => {
        if (typeof value === 'number' && !Number.isSafeInteger(value) && context?.source
            && /^-?\d+$/.test(context.source)) {
            return JSON.rawJSON(context.source);
        }
        return value;
    });
}

/**
 * POST /v1/inspect: `{report, jsonText}`, the JSON exactly as the server rendered it. `nested`:
 * NSData holding a keyed archive is decoded and shown in place (`{"$archive": …}`).
 */
export async function inspectBytes(bytes, mode, nested = false) {
    const query = new URLSearchParams({ mode, nested: nested ? 'true' : 'false' });
    const response = await call(`/v1/inspect?${query}`,
        { method: 'POST', body: bytes, contentType: 'application/octet-stream' });
    const all = new Uint8Array(await response.arrayBuffer());
    const length = Number(response.headers.get('X-ArchiveGate-JSON-Length'));
    const prefix = 8;          // {"json":
    const separator = 10;      // ,"report":
    if (!Number.isSafeInteger(length) || length < 0 || prefix + length + separator + 1 > all.length) {
        throw new ProblemError(0, { code: 'ui.bad_answer', title: 'Unexpected answer', detail: 'The inspect answer has no usable JSON length.' });
    }
    return {
        jsonText: decoder.decode(all.subarray(prefix, prefix + length)),
        report: JSON.parse(decoder.decode(all.subarray(prefix + length + separator, all.length - 1))),
    };
}

/** POST /v1/fetch: the report of the archive at `url` (`store: true`: the stored result document). */
export async function fetchURL(url, mode, store) {
    const response = await call('/v1/fetch', {
        method: 'POST', contentType: 'application/json', body: JSON.stringify({ url, mode, store }),
    });
    return response.json();
}

const encoder = new TextEncoder();

/** `name` without control characters, cut to the 255 UTF-8 bytes the store keeps. */
function storableName(name) {
    let kept = '';
    let bytes = 0;
    for (const character of String(name).replace(/[\u0000-\u001f\u007f-\u009f]/g, '')) {
        bytes += encoder.encode(character).length;
        if (bytes > 255) break;
        kept += character;
    }
    return kept;
}

/** POST /v1/validate: the report alone (for the verdicts of many files). */
export async function validateBytes(bytes) {
    const response = await call('/v1/validate', { method: 'POST', body: bytes, contentType: 'application/octet-stream' });
    return response.json();
}

/**
 * POST /v1/archives: the stored result document (`created`: 201, a new result). `name`: the
 * file's name, which listings show (the server keeps 1 to 255 UTF-8 bytes without control characters).
 */
export async function storeBytes(bytes, mode, name) {
    const query = new URLSearchParams({ mode });
    const label = storableName(name ?? '');
    if (label !== '') query.set('name', label);
    const response = await call(`/v1/archives?${query}`,
        { method: 'POST', body: bytes, contentType: 'application/octet-stream' });
    return { result: await response.json(), created: response.status === 201 };
}

/** GET /v1/archives: `{items, nextCursor}`. */
export async function listStored(limit, cursor) {
    const query = new URLSearchParams({ limit: String(limit) });
    if (cursor) query.set('cursor', cursor);
    const response = await call(`/v1/archives?${query}`);
    return response.json();
}

export async function getStored(id) {
    const response = await call(`/v1/archives/${encodeURIComponent(id)}`);
    return response.json();
}

export async function getStoredJSON(id) {
    const response = await call(`/v1/archives/${encodeURIComponent(id)}/json`);
    return response.text();
}
