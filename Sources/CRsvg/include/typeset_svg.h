// librsvg, loaded with dlopen the first time a document has an SVG image. Linked at build time it made every
// run map librsvg and the libraries it pulls in (libxml2, ICU, gdk-pixbuf, lzma: some ten shared objects,
// about a third of the dynamic loader's work for a one-page document; issue 14, start-up). Only the five
// calls typeset makes are looked up; glib types stay out of this header (a GError becomes its message).
#ifndef TYPESET_SVG_H
#define TYPESET_SVG_H

typedef struct typeset_svg typeset_svg;  // an RsvgHandle

/// Loads librsvg once (thread-safe). 1 when it is available; else 0 and `typeset_svg_unavailable` says why.
int typeset_svg_load(void);
/// Why librsvg could not be loaded (a static string), or 0.
const char *typeset_svg_unavailable(void);
/// 1 once librsvg has been loaded in this process.
int typeset_svg_loaded(void);

/// A handle for an SVG document in memory (no base file: librsvg loads nothing else), or 0 with `*error`
/// set to a message to free().
typeset_svg *typeset_svg_new(const unsigned char *data, unsigned long length, char **error);
void typeset_svg_free(typeset_svg *svg);
void typeset_svg_set_dpi(typeset_svg *svg, double dpi);
/// The absolute width and height in px: 1, or 0 when the document has none.
int typeset_svg_size_in_pixels(typeset_svg *svg, double *width, double *height);
/// The viewBox size: 1, or 0 when the document has no viewBox.
int typeset_svg_viewbox(typeset_svg *svg, double *width, double *height);
/// Draws the document into `cairo` (a cairo_t *) fitted to the viewport: 1, or 0 with `*error` (free()).
int typeset_svg_render(typeset_svg *svg, void *cairo, double x, double y, double width, double height, char **error);

#endif
