// See typeset_qpdf.h: each qpdf call goes through a pointer looked up once in the dlopen'ed library.
#define _GNU_SOURCE  // RTLD_DEEPBIND
#include "typeset_qpdf.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>

// (return type, name, parameters, arguments) of every function the header declares.
#define QPDF_FUNCTIONS(F) \
    F(qpdf_data, qpdf_init, (void), ()) \
    F(void, qpdf_cleanup, (qpdf_data *q), (q)) \
    F(void, qpdf_silence_errors, (qpdf_data q), (q)) \
    F(QPDF_ERROR_CODE, qpdf_read, (qpdf_data q, char const *f, char const *p), (q, f, p)) \
    F(QPDF_ERROR_CODE, qpdf_read_memory, (qpdf_data q, char const *d, char const *b, unsigned long long n, \
        char const *p), (q, d, b, n, p)) \
    F(QPDF_BOOL, qpdf_has_error, (qpdf_data q), (q)) \
    F(qpdf_error, qpdf_get_error, (qpdf_data q), (q)) \
    F(char const *, qpdf_get_error_full_text, (qpdf_data q, qpdf_error e), (q, e)) \
    F(int, qpdf_get_num_pages, (qpdf_data q), (q)) \
    F(qpdf_oh, qpdf_get_page_n, (qpdf_data q, size_t n), (q, n)) \
    F(qpdf_oh, qpdf_get_object_by_id, (qpdf_data q, int id, int g), (q, id, g)) \
    F(qpdf_oh, qpdf_get_root, (qpdf_data q), (q)) \
    F(qpdf_oh, qpdf_get_trailer, (qpdf_data q), (q)) \
    F(qpdf_oh, qpdf_oh_get_array_item, (qpdf_data q, qpdf_oh o, int n), (q, o, n)) \
    F(int, qpdf_oh_get_array_n_items, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(qpdf_oh, qpdf_oh_get_dict, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(qpdf_oh, qpdf_oh_get_key, (qpdf_data q, qpdf_oh o, char const *k), (q, o, k)) \
    F(int, qpdf_oh_get_object_id, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(QPDF_ERROR_CODE, qpdf_oh_get_stream_data, (qpdf_data q, qpdf_oh o, enum qpdf_stream_decode_level_e l, \
        QPDF_BOOL *f, unsigned char **b, size_t *n), (q, o, l, f, b, n)) \
    F(char const *, qpdf_oh_get_utf8_value, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(QPDF_BOOL, qpdf_oh_has_key, (qpdf_data q, qpdf_oh o, char const *k), (q, o, k)) \
    F(QPDF_BOOL, qpdf_oh_is_array, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(QPDF_BOOL, qpdf_oh_is_dictionary, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(QPDF_BOOL, qpdf_oh_is_stream, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(QPDF_BOOL, qpdf_oh_is_string, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(void, qpdf_oh_remove_key, (qpdf_data q, qpdf_oh o, char const *k), (q, o, k)) \
    F(char const *, qpdf_oh_unparse, (qpdf_data q, qpdf_oh o), (q, o)) \
    F(char const *, qpdf_oh_unparse_resolved, (qpdf_data q, qpdf_oh o), (q, o))

#define POINTER(type, name, params, args) type (*name) params;
static struct { QPDF_FUNCTIONS(POINTER) } qpdf;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *problem = 0;
static int loaded = 0;

static void load(void) {
    // The soname of Debian's libqpdf29 (qpdf 11), then the development symlink for other versions.
    // RTLD_DEEPBIND: libqpdf and the libraries it needs (libstdc++, gnutls, ...) look their 8,000 symbols up in
    // their own dependency tree first, not first through the 43 libraries typeset itself links (Pango, cairo,
    // glib, X11, ...). They bind to the same definitions, as typeset exports no C or C++ symbol they use, and
    // the load takes 1.7 ms instead of 2.9 (a C probe linked like typeset). Sanitizer runtimes refuse the flag.
    int flags = RTLD_NOW | RTLD_LOCAL;
#if defined(__has_feature)
#if !__has_feature(address_sanitizer) && !__has_feature(thread_sanitizer) && !__has_feature(memory_sanitizer)
    flags |= RTLD_DEEPBIND;
#endif
#elif !defined(__SANITIZE_ADDRESS__) && !defined(__SANITIZE_THREAD__)
    flags |= RTLD_DEEPBIND;
#endif
    void *lib = dlopen("libqpdf.so.29", flags);
    if (!lib) lib = dlopen("libqpdf.so", flags);
    if (!lib) {
        problem = "libqpdf (libqpdf.so.29, Debian package libqpdf29) is not installed";
        return;
    }
#define LOOK_UP(type, name, params, args) \
    *(void **)&qpdf.name = dlsym(lib, #name); \
    if (!qpdf.name) { problem = "libqpdf is older than 11 (no " #name ")"; return; }
    QPDF_FUNCTIONS(LOOK_UP)
    __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

static void *preload(void *unused) {
    (void)unused;
    pthread_once(&once, load);
    return 0;
}

void typeset_qpdf_preload(void) {
    static int started = 0;
    if (__atomic_exchange_n(&started, 1, __ATOMIC_ACQ_REL)) return;
    pthread_t thread;
    pthread_attr_t attributes;
    pthread_attr_init(&attributes);
    pthread_attr_setdetachstate(&attributes, PTHREAD_CREATE_DETACHED);
    // Without a thread the first qpdf call loads the library itself.
    if (pthread_create(&thread, &attributes, preload, 0) != 0) __atomic_store_n(&started, 0, __ATOMIC_RELEASE);
    pthread_attr_destroy(&attributes);
}

int typeset_qpdf_load(void) {
    pthread_once(&once, load);
    return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE);
}

const char *typeset_qpdf_unavailable(void) {
    pthread_once(&once, load);
    return problem;
}

// A call before a successful load is a bug in the caller: it ends the process with a message, not a jump to 0.
#define TRAMPOLINE(type, name, params, args) \
    type name params { \
        if (!typeset_qpdf_load()) { \
            fprintf(stderr, "typeset: %s\n", problem ? problem : "libqpdf is not loaded"); \
            abort(); \
        } \
        return qpdf.name args; \
    }
QPDF_FUNCTIONS(TRAMPOLINE)
