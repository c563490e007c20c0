// The verdict, the class table, the violations and the findings of a ValidationReport. Every
// violation or finding with a path is a link that opens the JSON tree at that path.

import { el, clear, linkButton } from './dom.js';

/**
 * Where a report path points in the JSON being shown. Report paths are JSON pointers into the
 * plain rendering; in typed mode the offending object is `/$objects/<uid>`.
 */
export function treePointer(item, mode) {
    if (mode === 'typed') return Number.isInteger(item.uid) ? `/$objects/${item.uid}` : null;
    return typeof item.path === 'string' ? item.path : null;
}

/** `outcome`: {kind: 'valid'|'rejected'|'malformed'|'failed', report?, problem?, status?}. */
export function renderVerdict(container, outcome) {
    clear(container);
    container.className = `verdict ${outcome.kind}`;
    const badge = el('span', { className: 'badge', text: outcome.kind === 'failed' ? 'error' : outcome.kind });
    container.dataset.verdict = outcome.kind;
    if (outcome.report) {
        const report = outcome.report;
        const count = report.violations?.length ?? 0;
        const headline = report.valid
            ? 'The policy accepts this archive.'
            : `The policy rejects this archive: ${count} violation${count === 1 ? '' : 's'}${report.violationsTruncated ? ' (more not listed)' : ''}.`;
        container.append(badge, el('p', { className: 'headline', text: headline }),
            el('p', { className: 'facts', text: `policy ${report.policy} · ${report.format} plist · ${report.objectCount} objects` }));
        return;
    }
    const problem = outcome.problem ?? {};
    container.append(badge,
        el('p', { className: 'headline', text: problem.title ?? 'The request failed.' }),
        el('dl', { className: 'problem' },
            el('dt', { text: 'code' }), el('dd', { className: 'problem-code', text: problem.code ?? '-' }),
            el('dt', { text: 'where' }), el('dd', { className: 'problem-detail', text: problem.detail ?? '-' }),
            el('dt', { text: 'status' }), el('dd', { text: outcome.status ? String(outcome.status) : '-' })));
}

/** How each `admittedBy` rule reads (OpenAPI `ClassEntry.admittedBy`); others are shown as they are. */
const ruleNames = {
    allow: "the policy's allow list",
    root: 'the root class rule',
    inspection: 'inspection mode (any class)',
    foundation: 'the built-in Foundation set',
};

/** `["allow","foundation"]` → "the policy's allow list; the built-in Foundation set". Text only. */
export function admittedText(admittedBy) {
    if (admittedBy === undefined || admittedBy === null) return '';
    const rules = Array.isArray(admittedBy) ? admittedBy : [admittedBy];
    return rules.map((rule) => {
        if (typeof rule !== 'string') return JSON.stringify(rule);
        if (rule.startsWith('key:')) return `the schema of key ${rule.slice(4)}`;
        return ruleNames[rule] ?? rule;
    }).join('; ');
}

/** The policy JSON that admits `name` (merged into a tenant's policy by hand). */
export function allowSnippet(name) {
    return JSON.stringify({ allow: [name] }, null, 2);
}

/** `allow(name)`: "Allow…" on a class the policy refuses shows the policy snippet that admits it. */
export function renderClasses(head, body, classes, allow) {
    clear(head);
    clear(body);
    const list = Array.isArray(classes) ? classes : [];
    const withRules = list.some((entry) => entry.admittedBy !== undefined);
    const columns = ['Class', 'Count', 'Allowed', ...(withRules ? ['Admitted by'] : []), 'Claimed superclasses'];
    head.append(...columns.map((name) => el('th', { text: name })));
    for (const entry of list) {
        const claimed = Array.isArray(entry.claimedClasses) ? entry.claimedClasses.join(' → ') : '';
        body.append(el('tr', { className: entry.allowed ? 'allowed' : 'not-allowed' },
            el('td', { className: 'class-name', text: entry.name }),
            el('td', { className: 'number', text: entry.count }),
            el('td', { className: 'allowed-cell' }, entry.allowed ? 'yes' : 'no',
                entry.allowed || typeof entry.name !== 'string' ? null : linkButton('allow…', () => allow(entry.name), 'link allow-class')),
            withRules ? el('td', { className: 'admitted-by', text: admittedText(entry.admittedBy) }) : null,
            el('td', { className: 'claimed', text: claimed })));
    }
    if (list.length === 0) body.append(el('tr', {}, el('td', { text: 'No classes.', attrs: { colspan: String(columns.length) } })));
}

/**
 * Violations and findings share one shape on the page: code, message, where; the path is a link.
 * `open(pointer)` reveals it in the tree. Unknown extra fields of a finding are listed as text.
 */
export function renderIssues(list, items, mode, open, { emptyText, known }) {
    clear(list);
    if (!Array.isArray(items) || items.length === 0) {
        list.append(el('li', { className: 'empty', text: emptyText }));
        return;
    }
    for (const item of items) {
        const pointer = treePointer(item, mode);
        const where = pointer === null
            ? el('span', { className: 'path', text: item.path ?? '' })
            : linkButton(pointer === '' ? '(whole document)' : pointer, () => open(pointer), 'link path-link');
        if (pointer !== null) where.dataset.pointer = pointer;
        const facts = [];
        if (item.class !== undefined) facts.push(`class ${item.class}`);
        if (item.key !== undefined) facts.push(`key ${item.key}`);
        if (item.uid !== undefined) facts.push(`uid ${item.uid}`);
        for (const [name, value] of Object.entries(item)) {
            if (known.has(name)) continue;
            facts.push(`${name} ${typeof value === 'string' ? value : JSON.stringify(value)}`);
        }
        list.append(el('li', { className: 'issue' },
            el('span', { className: 'code', text: item.code ?? item.kind ?? '' }), ' ',
            where,
            el('div', { className: 'message', text: item.message ?? '' }),
            facts.length ? el('div', { className: 'facts', text: facts.join(' · ') }) : null));
    }
}

export const violationFields = new Set(['code', 'message', 'path', 'uid', 'class', 'key']);
