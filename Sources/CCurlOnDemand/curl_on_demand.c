// The libcurl functions that Foundation's static networking library (URLSession) calls,
// each forwarding to the same function of libcurl.so.4, which is loaded with dlopen the
// first time one of them (or abacus_curl_load) runs.
//
// Linked into the release binary, where Foundation is linked statically, they stand in
// for the library itself: libcurl and the ~30 libraries it needs (TLS, Kerberos, LDAP…)
// are no longer loaded and relocated by every start (about 3 ms), only by a start that
// fetches rates (docs/architecture.md, "The release binary"). The options, infos and error codes
// pass through unchanged: no declaration from curl.h is needed, handles are opaque.
// The variadic calls (setopt, getinfo) always carry exactly one argument after the
// option, a long, a curl_off_t, or a pointer: each is one integer register, read and
// passed on as one.
//
// LiveRates calls abacus_curl_load before its first request, so a machine without
// libcurl gets an error naming it, never a failed call inside Foundation.

#define _GNU_SOURCE
#include "CCurlOnDemand.h"
#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>

static void *library;
static const char *failure;
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
    if (!library) failure = dlerror();
}

int abacus_curl_load(const char **reason) {
    pthread_once(&once, load);
    if (reason) *reason = library ? NULL : failure;
    return library != NULL;
}

// The address of libcurl's `name`. Foundation calls nothing here before URLSession is
// used, and LiveRates has loaded the library by then; a call with no libcurl is a bug
// that must not go on with a made-up answer.
static void *resolve(const char *name) {
    const char *reason = NULL;
    if (!abacus_curl_load(&reason)) {
        fprintf(stderr, "error: libcurl.so.4 is needed for %s and could not be loaded: %s\n", name,
                reason ? reason : "unknown reason");
        abort();
    }
    void *f = dlsym(library, name);
    if (!f) {
        fprintf(stderr, "error: libcurl.so.4 has no %s\n", name);
        abort();
    }
    return f;
}

// One forwarding function: its own cached address, resolved on first use.
#define FORWARD(ret, name, params, args)                                            \
    ret name params {                                                               \
        static _Atomic(void *) target;                                              \
        void *f = target;                                                           \
        if (!f) { f = resolve(#name); target = f; }                                 \
        return ((ret(*) params)f) args;                                             \
    }

#define FORWARD_VOID(name, params, args)                                            \
    void name params {                                                              \
        static _Atomic(void *) target;                                              \
        void *f = target;                                                           \
        if (!f) { f = resolve(#name); target = f; }                                 \
        ((void(*) params)f) args;                                                   \
    }

// The one argument after the option, as an integer register: `va_arg` of a pointer-sized
// integer reads a long, a curl_off_t or a pointer alike on the 64-bit targets Abacus builds for.
_Static_assert(sizeof(void *) == 8 && sizeof(long) == 8, "curl_on_demand.c assumes a 64-bit target");

#define FORWARD_VARIADIC(name, handle)                                              \
    int name(handle h, int option, ...) {                                           \
        static _Atomic(void *) target;                                              \
        void *f = target;                                                           \
        if (!f) { f = resolve(#name); target = f; }                                 \
        va_list ap;                                                                 \
        va_start(ap, option);                                                       \
        uintptr_t value = va_arg(ap, uintptr_t);                                    \
        va_end(ap);                                                                 \
        return ((int(*)(handle, int, ...))f)(h, option, value);                     \
    }

FORWARD(void *, curl_easy_init, (void), ())
FORWARD_VOID(curl_easy_cleanup, (void *h), (h))
FORWARD(int, curl_easy_pause, (void *h, int mask), (h, mask))
FORWARD(const char *, curl_easy_strerror, (int code), (code))
FORWARD_VARIADIC(curl_easy_setopt, void *)
FORWARD_VARIADIC(curl_easy_getinfo, void *)
FORWARD_VOID(curl_free, (void *p), (p))
FORWARD(int, curl_global_init, (long flags), (flags))
FORWARD(void *, curl_multi_init, (void), ())
FORWARD(int, curl_multi_cleanup, (void *m), (m))
FORWARD(int, curl_multi_add_handle, (void *m, void *h), (m, h))
FORWARD(int, curl_multi_remove_handle, (void *m, void *h), (m, h))
FORWARD(int, curl_multi_assign, (void *m, int socket, void *p), (m, socket, p))
FORWARD(void *, curl_multi_info_read, (void *m, int *left), (m, left))
FORWARD(int, curl_multi_socket_action, (void *m, int socket, int mask, int *running), (m, socket, mask, running))
FORWARD_VARIADIC(curl_multi_setopt, void *)
FORWARD(void *, curl_slist_append, (void *list, const char *text), (list, text))
FORWARD_VOID(curl_slist_free_all, (void *list), (list))
FORWARD(void *, curl_url, (void), ())
FORWARD(int, curl_url_get, (void *u, int part, char **out, unsigned int flags), (u, part, out, flags))
FORWARD(int, curl_url_set, (void *u, int part, const char *text, unsigned int flags), (u, part, text, flags))
FORWARD(char *, curl_version, (void), ())
FORWARD(void *, curl_version_info, (int age), (age))
