// libcurl, loaded with dlopen only when mockd proxies (--proxy): a mock server that never
// proxies does not load libcurl and the ~35 libraries it pulls in.
//
// The fully static build (`make static`, the container image) defines MOCKD_STATIC_CURL and
// links libcurl.a instead: a static glibc program cannot reliably dlopen a shared library (it
// would load a second libc). The table is then filled with libcurl's own functions.
//
// `ccurl_load` fills a table of function pointers with dlsym; every other function here takes
// that table and only forwards through it (typed wrappers for libcurl's variadic setopt and
// getinfo, which Swift cannot call). The Swift side (MockdProxy's CurlLoop) owns all the logic.
#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <curl/curl.h>
#include <dlfcn.h>

/// The libcurl functions mockd uses, resolved with dlsym. Read-only once `ccurl_load` returned it.
typedef struct ccurl_api {
    CURLcode (*global_init)(long flags);
    char *(*version)(void);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *curl);
    CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
    CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
    CURLcode (*easy_perform)(CURL *curl);
    CURLcode (*easy_send)(CURL *curl, const void *buffer, size_t length, size_t *sent);
    CURLcode (*easy_recv)(CURL *curl, void *buffer, size_t length, size_t *received);
    const char *(*easy_strerror)(CURLcode code);
    CURLM *(*multi_init)(void);
    CURLMcode (*multi_cleanup)(CURLM *multi);
    CURLMcode (*multi_add_handle)(CURLM *multi, CURL *curl);
    CURLMcode (*multi_remove_handle)(CURLM *multi, CURL *curl);
    CURLMcode (*multi_perform)(CURLM *multi, int *running);
    CURLMcode (*multi_poll)(CURLM *multi, struct curl_waitfd extra_fds[], unsigned int extra_nfds, int timeout_ms, int *ret);
    CURLMcode (*multi_wakeup)(CURLM *multi);
    CURLMsg *(*multi_info_read)(CURLM *multi, int *msgs_in_queue);
    struct curl_slist *(*slist_append)(struct curl_slist *list, const char *string);
    void (*slist_free_all)(struct curl_slist *list);
} ccurl_api;

/// Opens libcurl (libcurl.so.4, else libcurl.so; libcurl.4.dylib on macOS), resolves every
/// function and runs curl_global_init. Returns a table that lives for the process (never
/// closed: libcurl keeps global state), or NULL with the reason in `error`.
/// Not thread-safe (curl_global_init is not): call it once (MockdProxy calls it from a Swift global's initializer).
static inline const ccurl_api *ccurl_load(char *error, size_t error_size) {
#if defined(MOCKD_STATIC_CURL)
    // Linked in: every function is there, and there is no library to close.
    void *library = NULL;
#define CCURL_LOOKUP(symbol) ((void *)&symbol)
#else
#if defined(__APPLE__)
    static const char *const names[] = {"libcurl.4.dylib", "libcurl.dylib", NULL};
#else
    static const char *const names[] = {"libcurl.so.4", "libcurl.so", NULL};
#endif
    void *library = NULL;
    char first_error[512] = "";
    for (int index = 0; names[index] != NULL && library == NULL; index++) {
        library = dlopen(names[index], RTLD_NOW | RTLD_LOCAL);
        if (library == NULL && first_error[0] == '\0') {
            const char *reason = dlerror();
            snprintf(first_error, sizeof first_error, "%s", reason != NULL ? reason : names[index]);
        }
    }
    if (library == NULL) {
        snprintf(error, error_size, "%s", first_error);
        return NULL;
    }
#define CCURL_LOOKUP(symbol) dlsym(library, #symbol)
#endif
    ccurl_api *api = (ccurl_api *)calloc(1, sizeof(ccurl_api));
    if (api == NULL) {
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    const char *missing = NULL;
#define CCURL_RESOLVE(field, symbol)                                              \
    do {                                                                          \
        void *address = CCURL_LOOKUP(symbol);                                     \
        if (address == NULL && missing == NULL) missing = #symbol;                \
        memcpy(&api->field, &address, sizeof(void *));                            \
    } while (0)
    CCURL_RESOLVE(global_init, curl_global_init);
    CCURL_RESOLVE(version, curl_version);
    CCURL_RESOLVE(easy_init, curl_easy_init);
    CCURL_RESOLVE(easy_cleanup, curl_easy_cleanup);
    CCURL_RESOLVE(easy_setopt, curl_easy_setopt);
    CCURL_RESOLVE(easy_getinfo, curl_easy_getinfo);
    CCURL_RESOLVE(easy_perform, curl_easy_perform);
    CCURL_RESOLVE(easy_send, curl_easy_send);
    CCURL_RESOLVE(easy_recv, curl_easy_recv);
    CCURL_RESOLVE(easy_strerror, curl_easy_strerror);
    CCURL_RESOLVE(multi_init, curl_multi_init);
    CCURL_RESOLVE(multi_cleanup, curl_multi_cleanup);
    CCURL_RESOLVE(multi_add_handle, curl_multi_add_handle);
    CCURL_RESOLVE(multi_remove_handle, curl_multi_remove_handle);
    CCURL_RESOLVE(multi_perform, curl_multi_perform);
    CCURL_RESOLVE(multi_poll, curl_multi_poll);
    CCURL_RESOLVE(multi_wakeup, curl_multi_wakeup);
    CCURL_RESOLVE(multi_info_read, curl_multi_info_read);
    CCURL_RESOLVE(slist_append, curl_slist_append);
    CCURL_RESOLVE(slist_free_all, curl_slist_free_all);
#undef CCURL_RESOLVE
#undef CCURL_LOOKUP
    if (missing != NULL) {
        // curl_multi_poll is 7.66, curl_multi_wakeup 7.68.
        snprintf(error, error_size, "libcurl has no %s (7.68 or later is needed)", missing);
        free(api);
        if (library != NULL) dlclose(library);
        return NULL;
    }
    CURLcode code = api->global_init(CURL_GLOBAL_DEFAULT);
    if (code != CURLE_OK) {
        snprintf(error, error_size, "curl_global_init failed (%d)", (int)code);
        free(api);
        return NULL;
    }
    return api;
}

/// libcurl's version text, e.g. "libcurl/7.88.1 OpenSSL/3.0.11 zlib/1.2.13".
static inline const char *ccurl_version(const ccurl_api *api) { return api->version(); }

static inline CURL *ccurl_easy_init(const ccurl_api *api) { return api->easy_init(); }
static inline void ccurl_easy_cleanup(const ccurl_api *api, CURL *curl) { api->easy_cleanup(curl); }
static inline const char *ccurl_easy_strerror(const ccurl_api *api, CURLcode code) { return api->easy_strerror(code); }

// Typed forms of the variadic curl_easy_setopt, one per argument type.
static inline CURLcode ccurl_setopt_long(const ccurl_api *api, CURL *curl, CURLoption option, long value) {
    return api->easy_setopt(curl, option, value);
}
static inline CURLcode ccurl_setopt_ptr(const ccurl_api *api, CURL *curl, CURLoption option, const void *value) {
    return api->easy_setopt(curl, option, value);
}
static inline CURLcode ccurl_setopt_off_t(const ccurl_api *api, CURL *curl, CURLoption option, curl_off_t value) {
    return api->easy_setopt(curl, option, value);
}
/// CURLOPT_WRITEFUNCTION and CURLOPT_HEADERFUNCTION (same signature).
static inline CURLcode ccurl_setopt_write_callback(const ccurl_api *api, CURL *curl, CURLoption option, curl_write_callback value) {
    return api->easy_setopt(curl, option, value);
}

// Typed forms of the variadic curl_easy_getinfo.
static inline CURLcode ccurl_getinfo_long(const ccurl_api *api, CURL *curl, CURLINFO info, long *value) {
    return api->easy_getinfo(curl, info, value);
}

/// CURLINFO_ACTIVESOCKET: the socket of a CURLOPT_CONNECT_ONLY handle.
static inline CURLcode ccurl_getinfo_socket(const ccurl_api *api, CURL *curl, curl_socket_t *value) {
    return api->easy_getinfo(curl, CURLINFO_ACTIVESOCKET, value);
}

// A CURLOPT_CONNECT_ONLY handle: perform connects (TCP, and TLS for https), then the caller
// moves bytes itself (a relayed WebSocket). send and recv never wait (CURLE_AGAIN).
static inline CURLcode ccurl_easy_perform(const ccurl_api *api, CURL *curl) { return api->easy_perform(curl); }
static inline CURLcode ccurl_easy_send(const ccurl_api *api, CURL *curl, const void *buffer, size_t length, size_t *sent) {
    return api->easy_send(curl, buffer, length, sent);
}
static inline CURLcode ccurl_easy_recv(const ccurl_api *api, CURL *curl, void *buffer, size_t length, size_t *received) {
    return api->easy_recv(curl, buffer, length, received);
}

static inline CURLM *ccurl_multi_init(const ccurl_api *api) { return api->multi_init(); }
static inline CURLMcode ccurl_multi_cleanup(const ccurl_api *api, CURLM *multi) { return api->multi_cleanup(multi); }
static inline CURLMcode ccurl_multi_add_handle(const ccurl_api *api, CURLM *multi, CURL *curl) {
    return api->multi_add_handle(multi, curl);
}
static inline CURLMcode ccurl_multi_remove_handle(const ccurl_api *api, CURLM *multi, CURL *curl) {
    return api->multi_remove_handle(multi, curl);
}
static inline CURLMcode ccurl_multi_perform(const ccurl_api *api, CURLM *multi, int *running) {
    return api->multi_perform(multi, running);
}
/// Sleeps until a transfer's socket is ready, libcurl's next timer, `timeout_ms`, or a wakeup.
static inline CURLMcode ccurl_multi_poll(const ccurl_api *api, CURLM *multi, int timeout_ms) {
    return api->multi_poll(multi, NULL, 0, timeout_ms, NULL);
}
/// Interrupts ccurl_multi_poll; callable from any thread.
static inline CURLMcode ccurl_multi_wakeup(const ccurl_api *api, CURLM *multi) { return api->multi_wakeup(multi); }

/// The next finished transfer: 1 with its handle and result, 0 when there is none left.
static inline int ccurl_multi_next_done(const ccurl_api *api, CURLM *multi, CURL **curl, CURLcode *result) {
    int left = 0;
    CURLMsg *message;
    while ((message = api->multi_info_read(multi, &left)) != NULL) {
        if (message->msg == CURLMSG_DONE) {
            *curl = message->easy_handle;
            *result = message->data.result;
            return 1;
        }
    }
    return 0;
}

/// Appends a copy of `text`; NULL when out of memory (the old list is then still valid).
static inline struct curl_slist *ccurl_slist_append(const ccurl_api *api, struct curl_slist *list, const char *text) {
    return api->slist_append(list, text);
}
static inline void ccurl_slist_free_all(const ccurl_api *api, struct curl_slist *list) { api->slist_free_all(list); }

#endif
