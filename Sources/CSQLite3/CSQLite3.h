// The system SQLite (Debian libsqlite3-dev) for `archivegate scan-db`, which opens forensic
// databases read-only through URI filenames. sqlite-nio's bundled copy is prefixed (sqlite_nio_*),
// so both link into one binary without clashing.
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro casting -1 to a function pointer, which Swift cannot import.
static inline sqlite3_destructor_type csqlite3_transient(void) { return SQLITE_TRANSIENT; }
