/* reference_markup.c - the bare C floor for issue 8's densest inputs.
 *
 *   reference_markup MODE UNITS OUT.pdf
 *
 * What Pango and Cairo alone cost for the text that typeset's pathological inputs `*a* `, `` `a` ``, `==a== `
 * and a paragraph of `word ` in 16 columns make: UNITS times the unit, in one paragraph on A4 pages (2cm margins,
 * DejaVu Serif 10pt, line height 1.2, as RT's defaults), laid out in PangoLayouts of about 32 lines each (a
 * single layout would cost time quadratic in its lines) and drawn line by line with
 * pango_cairo_show_layout_line into a Cairo PDF. One thread, no tagging, no links, no checks: what a plain
 * program built on these libraries does for that text (LAYOUT_ONLY=1 leaves the drawing out, to show its share:
 * one PDF surface is drawn on one thread, whatever the cores). MODE:
 *   em      "a" italic, then a space (`*a* `)
 *   code    "a" in DejaVu Sans Mono 9pt on a light grey ground, then a space (`` `a` ``)
 *   mark    "a" on a yellow ground, then a space (`==a== `)
 *   narrow  "word ", in 16 columns 12pt apart
 * Build: cc -O2 reference_markup.c -o reference_markup $(pkg-config --cflags --libs pangocairo)
 */
#include <pango/pangocairo.h>
#include <cairo-pdf.h>
#include <malloc.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_W 595.2756
#define PAGE_H 841.8898
#define MARGIN 56.6929
#define GAP 12.0
#define LINE 12.0

int main(int argc, char **argv) {
    if (argc != 4) { fprintf(stderr, "usage: %s em|code|mark|narrow UNITS OUT.pdf\n", argv[0]); return 2; }
    /* Freed memory is kept: with glibc's default thresholds (or typeset's 256 KB) the heap grew and shrank with
     * each layout of italic text, a brk call every two units and a third of the run in the kernel. */
    mallopt(M_MMAP_THRESHOLD, 256 << 10);
    mallopt(M_TRIM_THRESHOLD, 256 << 20);
    const char *mode = argv[1];
    long units = atol(argv[2]);
    int narrow = !strcmp(mode, "narrow");
    int columns = narrow ? 16 : 1;
    double colw = (PAGE_W - 2 * MARGIN - (columns - 1) * GAP) / columns;

    cairo_surface_t *surface = cairo_pdf_surface_create(argv[3], PAGE_W, PAGE_H);
    cairo_t *cr = cairo_create(surface);
    PangoFontMap *fm = pango_cairo_font_map_new();
    pango_cairo_font_map_set_resolution(PANGO_CAIRO_FONT_MAP(fm), 72);
    PangoContext *ctx = pango_font_map_create_context(fm);
    pango_cairo_update_context(cr, ctx);
    pango_cairo_context_set_resolution(ctx, 72);
    PangoFontDescription *body = pango_font_description_from_string("DejaVu Serif 10");
    PangoFontDescription *mono = pango_font_description_from_string("DejaVu Sans Mono 9");

    /* About 32 lines a layout, at half an em a character (typeset's own piece size); PER_LAYOUT (units) overrides.
     * Pango walks a layout's attribute list for each run, so attributed text is cheapest in short layouts: 50
     * units (25 and 100 measured 10-35% slower, 1,500 twice as slow). */
    const char *unit = narrow ? "word " : "a ";
    long unit_len = (long)strlen(unit);
    long per = narrow ? (long)(32 * colw / 5.0) / unit_len : 50;
    if (getenv("PER_LAYOUT")) per = atol(getenv("PER_LAYOUT"));
    if (per < 8) per = 8;
    char *text = malloc(per * unit_len + 1);
    for (long i = 0; i < per; i++) memcpy(text + i * unit_len, unit, unit_len);

    int draw = !getenv("LAYOUT_ONLY");  /* LAYOUT_ONLY=1: lines are made but not drawn (the drawing's share) */
    int col = 0;
    double y = MARGIN;
    for (long done = 0; done < units; done += per) {
        long n = units - done < per ? units - done : per;
        PangoLayout *layout = pango_layout_new(ctx);
        pango_layout_set_font_description(layout, body);
        pango_layout_set_width(layout, (int)(colw * PANGO_SCALE));
        pango_layout_set_wrap(layout, PANGO_WRAP_WORD_CHAR);
        pango_layout_set_text(layout, text, (int)(n * unit_len));
        if (!narrow) {
            PangoAttrList *attrs = pango_attr_list_new();
            for (long i = 0; i < n; i++) {
                guint start = (guint)(i * unit_len), end = start + 1;
                PangoAttribute *a;
                if (!strcmp(mode, "em")) {
                    a = pango_attr_style_new(PANGO_STYLE_ITALIC);
                } else if (!strcmp(mode, "code")) {
                    a = pango_attr_font_desc_new(mono);
                    a->start_index = start, a->end_index = end;
                    pango_attr_list_insert(attrs, a);
                    a = pango_attr_background_new(0xf2f2, 0xf2f2, 0xf2f2);
                } else {
                    a = pango_attr_background_new(0xffff, 0xf0f0, 0x8080);
                }
                a->start_index = start, a->end_index = end;
                pango_attr_list_insert(attrs, a);
            }
            pango_layout_set_attributes(layout, attrs);
            pango_attr_list_unref(attrs);
        }
        PangoLayoutIter *it = pango_layout_get_iter(layout);
        do {
            if (y + LINE > PAGE_H - MARGIN) {
                y = MARGIN;
                if (++col == columns) { col = 0; cairo_show_page(cr); }
            }
            cairo_move_to(cr, MARGIN + col * (colw + GAP), y + 0.8 * LINE);
            PangoLayoutLine *line = pango_layout_iter_get_line_readonly(it);
            if (draw) pango_cairo_show_layout_line(cr, line);
            y += LINE;
        } while (pango_layout_iter_next_line(it));
        pango_layout_iter_free(it);
        g_object_unref(layout);
    }
    cairo_show_page(cr);
    cairo_destroy(cr);
    cairo_surface_finish(surface);
    int status = cairo_surface_status(surface);
    cairo_surface_destroy(surface);
    free(text);
    return status == CAIRO_STATUS_SUCCESS ? 0 : 1;
}
