// qpdf's C API, the part the tagging stage uses (Sources/TypesetPDF/TaggedPDF*.swift), loaded with dlopen.
// Linked at build time, libqpdf and what it pulls in (libstdc++'s relocations, gnutls, nettle, gmp, p11-kit,
// idn2, unistring, tasn1: twelve shared objects) made the dynamic loader's work at start-up three times the C
// reference's (issue 14, start-up). `typeset_qpdf_preload` starts loading it on a thread of its own when a
// tagged build begins, so the load overlaps layout; the first qpdf call waits for it.
// The declarations copy qpdf 11's qpdf-c.h (same names and types); they are hidden in the executable, so
// libqpdf's own calls never bind to them. Also zlib, for the content streams the stage rewrites, and the
// C library's fixed-point formatting for TypesetPDF's numbers (CFormat.swift): called with a fixed signature, so
// Swift builds no CVarArg list (whose dynamic casts look up protocol conformances at start-up).
#ifndef TYPESET_QPDF_H
#define TYPESET_QPDF_H

#include <stddef.h>
#include <stdio.h>
#include <zlib.h>

/// Starts loading libqpdf on a thread of its own (once; later calls do nothing).
void typeset_qpdf_preload(void);
/// Loads libqpdf (waits for a preload under way): 1 when it is available; else 0, and
/// `typeset_qpdf_unavailable` says why.
int typeset_qpdf_load(void);
/// Why libqpdf could not be loaded (a static string), or 0.
const char *typeset_qpdf_unavailable(void);

typedef struct _qpdf_data *qpdf_data;
typedef struct _qpdf_error *qpdf_error;
typedef int QPDF_ERROR_CODE;
typedef int QPDF_BOOL;
typedef unsigned int qpdf_oh;
enum qpdf_stream_decode_level_e { qpdf_dl_none = 0, qpdf_dl_generalized, qpdf_dl_specialized, qpdf_dl_all };

#define TYPESET_QPDF_HIDDEN __attribute__((visibility("hidden")))
// Call only after typeset_qpdf_load() returned 1.
TYPESET_QPDF_HIDDEN qpdf_data qpdf_init(void);
TYPESET_QPDF_HIDDEN void qpdf_cleanup(qpdf_data *qpdf);
TYPESET_QPDF_HIDDEN void qpdf_silence_errors(qpdf_data qpdf);
TYPESET_QPDF_HIDDEN QPDF_ERROR_CODE qpdf_read(qpdf_data qpdf, char const *filename, char const *password);
TYPESET_QPDF_HIDDEN QPDF_ERROR_CODE qpdf_read_memory(qpdf_data qpdf, char const *description, char const *buffer,
                                                     unsigned long long size, char const *password);
TYPESET_QPDF_HIDDEN QPDF_BOOL qpdf_has_error(qpdf_data qpdf);
TYPESET_QPDF_HIDDEN qpdf_error qpdf_get_error(qpdf_data qpdf);
TYPESET_QPDF_HIDDEN char const *qpdf_get_error_full_text(qpdf_data q, qpdf_error e);
TYPESET_QPDF_HIDDEN int qpdf_get_num_pages(qpdf_data qpdf);
TYPESET_QPDF_HIDDEN qpdf_oh qpdf_get_page_n(qpdf_data qpdf, size_t zero_based_index);
TYPESET_QPDF_HIDDEN qpdf_oh qpdf_get_object_by_id(qpdf_data qpdf, int objid, int generation);
TYPESET_QPDF_HIDDEN qpdf_oh qpdf_get_root(qpdf_data qpdf);
TYPESET_QPDF_HIDDEN qpdf_oh qpdf_get_trailer(qpdf_data qpdf);
TYPESET_QPDF_HIDDEN qpdf_oh qpdf_oh_get_array_item(qpdf_data qpdf, qpdf_oh oh, int n);
TYPESET_QPDF_HIDDEN int qpdf_oh_get_array_n_items(qpdf_data qpdf, qpdf_oh oh);
TYPESET_QPDF_HIDDEN qpdf_oh qpdf_oh_get_dict(qpdf_data qpdf, qpdf_oh oh);
TYPESET_QPDF_HIDDEN qpdf_oh qpdf_oh_get_key(qpdf_data qpdf, qpdf_oh oh, char const *key);
TYPESET_QPDF_HIDDEN int qpdf_oh_get_object_id(qpdf_data qpdf, qpdf_oh oh);
TYPESET_QPDF_HIDDEN QPDF_ERROR_CODE qpdf_oh_get_stream_data(qpdf_data qpdf, qpdf_oh stream_oh,
    enum qpdf_stream_decode_level_e decode_level, QPDF_BOOL *filtered, unsigned char **bufp, size_t *len);
TYPESET_QPDF_HIDDEN char const *qpdf_oh_get_utf8_value(qpdf_data qpdf, qpdf_oh oh);
TYPESET_QPDF_HIDDEN QPDF_BOOL qpdf_oh_has_key(qpdf_data qpdf, qpdf_oh oh, char const *key);
TYPESET_QPDF_HIDDEN QPDF_BOOL qpdf_oh_is_array(qpdf_data qpdf, qpdf_oh oh);
TYPESET_QPDF_HIDDEN QPDF_BOOL qpdf_oh_is_dictionary(qpdf_data qpdf, qpdf_oh oh);
TYPESET_QPDF_HIDDEN QPDF_BOOL qpdf_oh_is_stream(qpdf_data qpdf, qpdf_oh oh);
TYPESET_QPDF_HIDDEN QPDF_BOOL qpdf_oh_is_string(qpdf_data qpdf, qpdf_oh oh);
TYPESET_QPDF_HIDDEN void qpdf_oh_remove_key(qpdf_data qpdf, qpdf_oh oh, char const *key);
TYPESET_QPDF_HIDDEN char const *qpdf_oh_unparse(qpdf_data qpdf, qpdf_oh oh);
TYPESET_QPDF_HIDDEN char const *qpdf_oh_unparse_resolved(qpdf_data qpdf, qpdf_oh oh);

/// snprintf(buffer, size, "%.*f", decimals, value).
static inline int typeset_format_fixed(char *buffer, unsigned long size, double value, int decimals) {
    return snprintf(buffer, size, "%.*f", decimals, value);
}

#endif
