// libcurl, loaded with dlopen on first use instead of linked, plus typed wrappers over its
// C-variadic calls, which Swift cannot call directly.
//
// Why dlopen: libcurl brings ~30 shared libraries (OpenSSL, GnuTLS, Kerberos, LDAP, SASL, ...)
// that the dynamic loader would map and relocate at the start of every `archivegate` command,
// although only fetching uses them (about half of a 1 KB `validate`'s CPU; docs/BENCHMARKS.md,
// "Start-up"). <curl/curl.h> is included for its types and constants only: this module links
// nothing, so a direct call to a curl_* function is a link error, not a silent eager load.
//
// `ag_curl_load` fills an `ag_curl_api` table of function pointers from `dlsym`; the Swift side
// (ArchiveGateFetch's Libcurl.swift) calls it once per process. curl_easy_setopt and
// curl_easy_getinfo take "..." arguments; each wrapper below fixes one argument type (long,
// curl_off_t, string, pointer, or one callback signature) so the Swift side stays type-checked.
// `static inline` keeps this a header-only system-library module: no extra C target to build.
#ifndef ARCHIVEGATE_CCURL_H
#define ARCHIVEGATE_CCURL_H

#include <curl/curl.h>
#include <dlfcn.h>
#include <stddef.h>
#include <sys/socket.h>

/// The soname of libcurl's ABI 4 (every libcurl since 7.16), as Debian's `libcurl4` installs it.
#define AG_CURL_LIBRARY "libcurl.so.4"

/// The libcurl functions ArchiveGate calls, resolved from the loaded library.
typedef struct ag_curl_api {
    CURLcode (*_Nonnull global_init)(long flags);
    CURL *_Nullable (*_Nonnull easy_init)(void);
    void (*_Nonnull easy_cleanup)(CURL *_Nonnull handle);
    CURLcode (*_Nonnull easy_perform)(CURL *_Nonnull handle);
    const char *_Nonnull (*_Nonnull easy_strerror)(CURLcode code);
    /// `CURLcode curl_easy_setopt(CURL *, CURLoption, ...)`: called only through the typed wrappers.
    void *_Nonnull easy_setopt;
    /// `CURLcode curl_easy_getinfo(CURL *, CURLINFO, ...)`: called only through the typed wrappers.
    void *_Nonnull easy_getinfo;
    CURLU *_Nullable (*_Nonnull url)(void);
    void (*_Nonnull url_cleanup)(CURLU *_Nonnull url);
    CURLUcode (*_Nonnull url_set)(CURLU *_Nonnull url, CURLUPart part, const char *_Nullable content, unsigned int flags);
    CURLUcode (*_Nonnull url_get)(const CURLU *_Nonnull url, CURLUPart part, char *_Nullable *_Nonnull content, unsigned int flags);
    const char *_Nonnull (*_Nonnull url_strerror)(CURLUcode code);
    void (*_Nonnull free)(void *_Nullable pointer);
} ag_curl_api;

/// Loads libcurl and fills `api`. Returns NULL on success, otherwise why not: dlerror's text
/// (valid until the next dl* call on this thread; copy it at once) or the missing symbol's name.
/// The library is never unloaded. Not thread-safe by itself: call it once (Libcurl.swift does).
static inline const char *_Nullable ag_curl_load(ag_curl_api *_Nonnull api) {
    void *library = dlopen(AG_CURL_LIBRARY, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        const char *reason = dlerror();
        return reason != NULL ? reason : "dlopen(" AG_CURL_LIBRARY ") failed";
    }
#define AG_CURL_RESOLVE(field, symbol)                                  \
    do {                                                                \
        void *address = dlsym(library, #symbol);                        \
        if (address == NULL) return AG_CURL_LIBRARY " lacks " #symbol;  \
        *(void **)&api->field = address;                                \
    } while (0)
    AG_CURL_RESOLVE(global_init, curl_global_init);
    AG_CURL_RESOLVE(easy_init, curl_easy_init);
    AG_CURL_RESOLVE(easy_cleanup, curl_easy_cleanup);
    AG_CURL_RESOLVE(easy_perform, curl_easy_perform);
    AG_CURL_RESOLVE(easy_strerror, curl_easy_strerror);
    AG_CURL_RESOLVE(easy_setopt, curl_easy_setopt);
    AG_CURL_RESOLVE(easy_getinfo, curl_easy_getinfo);
    AG_CURL_RESOLVE(url, curl_url);
    AG_CURL_RESOLVE(url_cleanup, curl_url_cleanup);
    AG_CURL_RESOLVE(url_set, curl_url_set);
    AG_CURL_RESOLVE(url_get, curl_url_get);
    AG_CURL_RESOLVE(url_strerror, curl_url_strerror);
    AG_CURL_RESOLVE(free, curl_free);
#undef AG_CURL_RESOLVE
    return NULL;
}

// The wrappers take the table's `easy_setopt` / `easy_getinfo` pointer and call it with libcurl's
// real, variadic signature (calling a variadic function through a non-variadic type would be
// undefined behaviour).

static inline CURLcode ag_curl_setopt_long(void *_Nonnull setopt, CURL *_Nonnull handle, CURLoption option, long value) {
    return ((CURLcode (*)(CURL *, CURLoption, ...))setopt)(handle, option, value);
}

static inline CURLcode ag_curl_setopt_off(void *_Nonnull setopt, CURL *_Nonnull handle, CURLoption option, curl_off_t value) {
    return ((CURLcode (*)(CURL *, CURLoption, ...))setopt)(handle, option, value);
}

/// libcurl copies string options (since 7.17), so the Swift string may die after the call.
static inline CURLcode ag_curl_setopt_string(void *_Nonnull setopt, CURL *_Nonnull handle, CURLoption option, const char *_Nonnull value) {
    return ((CURLcode (*)(CURL *, CURLoption, ...))setopt)(handle, option, value);
}

static inline CURLcode ag_curl_setopt_pointer(void *_Nonnull setopt, CURL *_Nonnull handle, CURLoption option, void *_Nullable value) {
    return ((CURLcode (*)(CURL *, CURLoption, ...))setopt)(handle, option, value);
}

typedef size_t (*ag_curl_write_callback)(char *data, size_t size, size_t count, void *userdata);

static inline CURLcode ag_curl_set_write_function(void *_Nonnull setopt, CURL *_Nonnull handle, ag_curl_write_callback _Nonnull callback) {
    return ((CURLcode (*)(CURL *, CURLoption, ...))setopt)(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode ag_curl_set_opensocket_function(void *_Nonnull setopt, CURL *_Nonnull handle, curl_opensocket_callback _Nonnull callback) {
    return ((CURLcode (*)(CURL *, CURLoption, ...))setopt)(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

static inline CURLcode ag_curl_set_prereq_function(void *_Nonnull setopt, CURL *_Nonnull handle, curl_prereq_callback _Nonnull callback) {
    return ((CURLcode (*)(CURL *, CURLoption, ...))setopt)(handle, CURLOPT_PREREQFUNCTION, callback);
}

static inline CURLcode ag_curl_set_xferinfo_function(void *_Nonnull setopt, CURL *_Nonnull handle, curl_xferinfo_callback _Nonnull callback) {
    return ((CURLcode (*)(CURL *, CURLoption, ...))setopt)(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode ag_curl_getinfo_long(void *_Nonnull getinfo, CURL *_Nonnull handle, CURLINFO info, long *_Nonnull value) {
    return ((CURLcode (*)(CURL *, CURLINFO, ...))getinfo)(handle, info, value);
}

static inline CURLcode ag_curl_getinfo_string(void *_Nonnull getinfo, CURL *_Nonnull handle, CURLINFO info, char *_Nullable *_Nonnull value) {
    return ((CURLcode (*)(CURL *, CURLINFO, ...))getinfo)(handle, info, value);
}

/// `struct curl_sockaddr` ends in a `struct sockaddr` that is really as long as `addrlen` (an IPv6
/// address does not fit `struct sockaddr`); Swift would copy only the declared 16 bytes, so the
/// address is read through this pointer instead.
static inline const struct sockaddr *ag_curl_sockaddr_address(const struct curl_sockaddr *address) {
    return &address->addr;
}

#endif
