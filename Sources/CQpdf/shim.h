// qpdf's C API: the tagging stage's only view of PDF objects (Sources/TypesetPDF/TaggedPDF*.swift).
#include <qpdf/qpdf-c.h>
