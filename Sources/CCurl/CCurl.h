// Typed wrappers over libcurl's C-variadic calls, which Swift cannot call directly.
//
// curl_easy_setopt and curl_easy_getinfo take "..." arguments; each wrapper below fixes one
// argument type (long, curl_off_t, string, pointer, or one callback signature) so the Swift side
// stays type-checked. Everything else in libcurl (curl_easy_init, curl_url_*, ...) imports as is.
// `static inline` keeps this a header-only system-library module: no extra C target to build.
#ifndef ARCHIVEGATE_CCURL_H
#define ARCHIVEGATE_CCURL_H

#include <curl/curl.h>
#include <sys/socket.h>

static inline CURLcode ag_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ag_curl_setopt_off(CURL *handle, CURLoption option, curl_off_t value) {
    return curl_easy_setopt(handle, option, value);
}

/// libcurl copies string options (since 7.17), so the Swift string may die after the call.
static inline CURLcode ag_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl_easy_setopt(handle, option, value);
}

static inline CURLcode ag_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl_easy_setopt(handle, option, value);
}

typedef size_t (*ag_curl_write_callback)(char *data, size_t size, size_t count, void *userdata);

static inline CURLcode ag_curl_set_write_function(CURL *handle, ag_curl_write_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}

static inline CURLcode ag_curl_set_opensocket_function(CURL *handle, curl_opensocket_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, callback);
}

static inline CURLcode ag_curl_set_prereq_function(CURL *handle, curl_prereq_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_PREREQFUNCTION, callback);
}

static inline CURLcode ag_curl_set_xferinfo_function(CURL *handle, curl_xferinfo_callback callback) {
    return curl_easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}

static inline CURLcode ag_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode ag_curl_getinfo_string(CURL *handle, CURLINFO info, char **value) {
    return curl_easy_getinfo(handle, info, value);
}

/// `struct curl_sockaddr` ends in a `struct sockaddr` that is really as long as `addrlen` (an IPv6
/// address does not fit `struct sockaddr`); Swift would copy only the declared 16 bytes, so the
/// address is read through this pointer instead.
static inline const struct sockaddr *ag_curl_sockaddr_address(const struct curl_sockaddr *address) {
    return &address->addr;
}

#endif
