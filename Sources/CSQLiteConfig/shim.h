// Process-wide SQLite settings that Swift cannot make itself: sqlite3_config
// is variadic, and Swift does not import variadic C functions. Declared here
// rather than by including <sqlite3.h>, which GRDB's module already brings in.
int sqlite3_config(int option, ...);

// SQLITE_CONFIG_MEMSTATUS (9 in sqlite3.h, a stable ABI value), off: SQLite
// then stops taking a global mutex to count every allocation. Must run before
// SQLite initialises (its first connection); returns SQLITE_OK (0), or
// SQLITE_MISUSE (21) when it is too late.
static inline int tally_sqlite_stop_counting_memory(void) {
    return sqlite3_config(9, 0);
}
