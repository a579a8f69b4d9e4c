// libsqlite3 (Debian's libsqlite3-dev), for `export --format sqlite`. sqlite3_config is
// variadic, which Swift cannot call: the one setting realmsh makes goes through this accessor.
#include <sqlite3.h>

/// Turns off SQLite's memory statistics, which take a global mutex on every allocation; only
/// possible before SQLite initializes (later calls return SQLITE_MISUSE and change nothing).
static inline int realmsh_sqlite3_disable_memstatus(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
