// qpdf's C API: the tagging stage's only view of PDF objects (Sources/TypesetPDF/TaggedPDF*.swift), and zlib for
// the content streams it rewrites. Also the C library's fixed-point formatting for TypesetPDF's numbers
// (CFormat.swift): called with a fixed signature, so Swift builds no CVarArg list (whose dynamic casts look
// up protocol conformances at start-up).
#include <qpdf/qpdf-c.h>
#include <stdio.h>
#include <zlib.h>

/// snprintf(buffer, size, "%.*f", decimals, value).
static inline int typeset_format_fixed(char *buffer, unsigned long size, double value, int decimals) {
    return snprintf(buffer, size, "%.*f", decimals, value);
}
