// The system's SQLite (Debian's libsqlite3-dev), read through its C API.
#include <sqlite3.h>
