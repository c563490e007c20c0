// Dates as the JSON holds them (ISO 8601 UTC, `2001-01-01T00:00:00.000Z`) shown in the viewer's
// local time as well, unless the page is set to UTC only.

const ISO_UTC = /^-?\d{4,6}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d{1,3})?Z$/;

const localFormat = new Intl.DateTimeFormat(undefined, {
    year: 'numeric', month: '2-digit', day: '2-digit', hour: '2-digit', minute: '2-digit', second: '2-digit',
    fractionalSecondDigits: 3, hour12: false, timeZoneName: 'short',
});

/** `local 23/01/1813, 17:00:00.000 GMT+1` for an ISO UTC date string; null for anything else or in UTC mode. */
export function dateNote(text, utc) {
    if (utc || text.length > 32 || !ISO_UTC.test(text)) return null;
    const date = new Date(text);
    if (Number.isNaN(date.getTime())) return null;
    return `local ${localFormat.format(date)}`;
}
