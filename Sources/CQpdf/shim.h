// qpdf's C API: the tagging stage's only view of PDF objects (Sources/TypesetPDF/TaggedPDF*.swift), and zlib for
// the content streams it rewrites.
#include <qpdf/qpdf-c.h>
#include <zlib.h>
