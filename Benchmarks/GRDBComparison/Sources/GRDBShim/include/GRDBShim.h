// Definitions of the SQLite ≥ 3.20 functions GRDB 7.8 calls, for SQLite 3.15.2 (SQLCipher 3.4.1).
void grdb_shim_link(void);
