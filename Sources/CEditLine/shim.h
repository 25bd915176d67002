// libedit through its readline-compatible API. Its variadic el_set/history calls
// are unavailable to Swift; the readline functions used here are not variadic.
#include <stdio.h>
#include <editline/readline.h>
