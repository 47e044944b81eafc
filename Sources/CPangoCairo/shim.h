#ifndef TYPESET_CPANGOCAIRO_SHIM_H
#define TYPESET_CPANGOCAIRO_SHIM_H
#include <pango/pangocairo.h>
#include <pango/pangofc-fontmap.h>
#include <pango/pangofc-font.h>
#include <fontconfig/fontconfig.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#include <stdio.h>
#include <string.h>
#include <setjmp.h>
#include <jpeglib.h>
#include <fribidi.h>

/* libjpeg reports errors by calling error_exit, whose default ends the process; Swift cannot longjmp,
   so the decoder lives here and turns every libjpeg error into a NULL result with libjpeg's message. */
struct typeset_jpeg_error {
    struct jpeg_error_mgr manager;
    jmp_buf jump;
    char message[JMSG_LENGTH_MAX];
};

static void typeset_jpeg_error_exit(j_common_ptr info) {
    struct typeset_jpeg_error *error = (struct typeset_jpeg_error *)info->err;
    (*info->err->format_message)(info, error->message);
    longjmp(error->jump, 1);
}

static void typeset_jpeg_silence(j_common_ptr info, int level) { (void)info; (void)level; }

/* Decodes JPEG bytes into a new CAIRO_FORMAT_RGB24 surface, or returns NULL and fills `message`. */
static inline cairo_surface_t *typeset_jpeg_decode(const unsigned char *data, unsigned long size,
                                                   char *message, size_t message_size) {
    struct jpeg_decompress_struct info;
    struct typeset_jpeg_error error;
    cairo_surface_t *volatile surface = NULL;
    memset(&info, 0, sizeof info);
    info.err = jpeg_std_error(&error.manager);
    error.manager.error_exit = typeset_jpeg_error_exit;
    error.manager.emit_message = typeset_jpeg_silence;
    error.message[0] = 0;
    if (setjmp(error.jump)) {
        jpeg_destroy_decompress(&info);
        if (surface) cairo_surface_destroy(surface);
        snprintf(message, message_size, "%s", error.message[0] ? error.message : "not a valid JPEG file");
        return NULL;
    }
    jpeg_create_decompress(&info);
    jpeg_mem_src(&info, data, size);
    jpeg_read_header(&info, TRUE);
    /* libjpeg-turbo writes cairo's RGB24 byte order (B G R x on little endian) directly. */
    info.out_color_space = (G_BYTE_ORDER == G_LITTLE_ENDIAN) ? JCS_EXT_BGRX : JCS_EXT_XRGB;
    jpeg_start_decompress(&info);
    surface = cairo_image_surface_create(CAIRO_FORMAT_RGB24, (int)info.output_width, (int)info.output_height);
    if (cairo_surface_status(surface) != CAIRO_STATUS_SUCCESS) {
        snprintf(message, message_size, "image too large");
        cairo_surface_destroy(surface);
        jpeg_destroy_decompress(&info);
        return NULL;
    }
    cairo_surface_flush(surface);
    unsigned char *pixels = cairo_image_surface_get_data(surface);
    int stride = cairo_image_surface_get_stride(surface);
    while (info.output_scanline < info.output_height) {
        JSAMPROW row = pixels + (size_t)info.output_scanline * (size_t)stride;
        jpeg_read_scanlines(&info, &row, 1);
    }
    jpeg_finish_decompress(&info);
    jpeg_destroy_decompress(&info);
    cairo_surface_mark_dirty(surface);
    return surface;
}

/* Cursive joining (Arabic, Syriac, N'Ko, ...) from fribidi's tables, which Pango already loads: whether a character
   connects to the character after it in logical order, to the one before it, or is passed over (a vowel mark). */
static inline int typeset_joins_to_next(uint32_t c) { return FRIBIDI_JOINS_LEFT(fribidi_get_joining_type(c)) != 0; }
static inline int typeset_joins_to_previous(uint32_t c) { return FRIBIDI_JOINS_RIGHT(fribidi_get_joining_type(c)) != 0; }
static inline int typeset_join_skips(uint32_t c) { return FRIBIDI_IS_JOIN_SKIPPED(fribidi_get_joining_type(c)) != 0; }
#endif
