// See typeset_svg.h. The declarations below copy librsvg 2.5x's public ABI (rsvg.h, rsvg-cairo.h) and glib's
// GError; only pointers, doubles and ints cross, as in the headers.
#include "typeset_svg.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>

typedef struct { unsigned int domain; int code; char *message; } gerror_t;
typedef struct { double x, y, width, height; } rsvg_rectangle_t;

static struct {
    typeset_svg *(*new_from_data)(const unsigned char *, unsigned long, gerror_t **);
    void (*set_dpi)(typeset_svg *, double);
    int (*size_in_pixels)(typeset_svg *, double *, double *);
    void (*dimensions)(typeset_svg *, int *, void *, int *, void *, int *, rsvg_rectangle_t *);
    int (*render)(typeset_svg *, void *, const rsvg_rectangle_t *, gerror_t **);
    void (*unref)(void *);
    void (*error_free)(gerror_t *);
} rsvg;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *problem = 0;
static int loaded = 0;

static void load(void) {
    void *lib = dlopen("librsvg-2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!lib) {
        problem = "librsvg (librsvg-2.so.2) is not installed";
        return;
    }
    // g_object_unref and g_error_free come from glib, which librsvg links: found through its handle.
    *(void **)&rsvg.new_from_data = dlsym(lib, "rsvg_handle_new_from_data");
    *(void **)&rsvg.set_dpi = dlsym(lib, "rsvg_handle_set_dpi");
    *(void **)&rsvg.size_in_pixels = dlsym(lib, "rsvg_handle_get_intrinsic_size_in_pixels");
    *(void **)&rsvg.dimensions = dlsym(lib, "rsvg_handle_get_intrinsic_dimensions");
    *(void **)&rsvg.render = dlsym(lib, "rsvg_handle_render_document");
    *(void **)&rsvg.unref = dlsym(lib, "g_object_unref");
    *(void **)&rsvg.error_free = dlsym(lib, "g_error_free");
    if (!rsvg.new_from_data || !rsvg.set_dpi || !rsvg.size_in_pixels || !rsvg.dimensions || !rsvg.render
        || !rsvg.unref || !rsvg.error_free) {
        problem = "librsvg is older than 2.52 (typeset needs rsvg_handle_render_document)";
        return;
    }
    __atomic_store_n(&loaded, 1, __ATOMIC_RELEASE);
}

int typeset_svg_load(void) {
    pthread_once(&once, load);
    return loaded;
}

const char *typeset_svg_unavailable(void) {
    pthread_once(&once, load);
    return problem;
}

int typeset_svg_loaded(void) {
    // Set inside pthread_once; read without it only for reporting (never before a load on this thread).
    return __atomic_load_n(&loaded, __ATOMIC_ACQUIRE);
}

/// The message of `error` (malloc'd), freeing the GError.
static char *take(gerror_t *error) {
    if (!error) return 0;
    char *message = error->message ? strdup(error->message) : 0;
    rsvg.error_free(error);
    return message;
}

typeset_svg *typeset_svg_new(const unsigned char *data, unsigned long length, char **error) {
    *error = 0;
    if (!typeset_svg_load()) return 0;
    gerror_t *e = 0;
    typeset_svg *svg = rsvg.new_from_data(data, length, &e);
    *error = take(e);
    return svg;
}

void typeset_svg_free(typeset_svg *svg) { if (svg) rsvg.unref(svg); }

void typeset_svg_set_dpi(typeset_svg *svg, double dpi) { rsvg.set_dpi(svg, dpi); }

int typeset_svg_size_in_pixels(typeset_svg *svg, double *width, double *height) {
    return rsvg.size_in_pixels(svg, width, height) != 0;
}

int typeset_svg_viewbox(typeset_svg *svg, double *width, double *height) {
    int has = 0;
    rsvg_rectangle_t box = {0, 0, 0, 0};
    rsvg.dimensions(svg, 0, 0, 0, 0, &has, &box);
    *width = box.width;
    *height = box.height;
    return has != 0;
}

int typeset_svg_render(typeset_svg *svg, void *cairo, double x, double y, double width, double height, char **error) {
    rsvg_rectangle_t viewport = {x, y, width, height};
    gerror_t *e = 0;
    int drawn = rsvg.render(svg, cairo, &viewport, &e) != 0;
    *error = take(e);
    return drawn;
}
