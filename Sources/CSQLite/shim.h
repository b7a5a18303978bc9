#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

// SQLITE_TRANSIENT is a macro that casts -1 to a function pointer; Swift cannot import it.
// Binding with it makes SQLite copy the buffer before the bind call returns.
static inline sqlite3_destructor_type CSQLite_TRANSIENT(void) { return SQLITE_TRANSIENT; }

// sqlite3_db_config is variadic, which Swift cannot call; these fix its arguments for one option each.
// Defensive mode refuses the statements that can corrupt a database file on purpose (writable_schema,
// journal_mode=OFF...); an untrusted schema stops views and triggers in a tampered file from calling
// functions with side effects.
static inline int CSQLite_setDefensive(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_DEFENSIVE, on, (int *)0);
}
static inline int CSQLite_setTrustedSchema(sqlite3 *db, int on) {
    return sqlite3_db_config(db, SQLITE_DBCONFIG_TRUSTED_SCHEMA, on, (int *)0);
}
#endif
