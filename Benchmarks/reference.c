/* reference.c - the bare C loop typeset is measured against.
 *
 *   reference IN.txt OUT.pdf
 *
 * Reads the plain-paragraph file written by gen_report.py --plain (one paragraph per line; an
 * optional tag before a TAB: H1, H2 headings, LI list item, CODE code line), lays out each paragraph
 * with its own PangoLayout and places the lines into 2 justified columns on A4 pages, drawing each
 * line with pango_cairo_show_layout_line into a Cairo PDF.
 *
 * It does what a competent hand-written loop does and no more: one font map and one context for
 * the whole run (font setup is expensive), font descriptions made once, no reuse tricks beyond
 * that, no threads. Same page geometry as the benchmark RT document: A4, 2cm margins, 2 columns
 * with a 12pt gap, DejaVu Serif 10pt, line height 1.2, justified body text, page number footer.
 * Not done (typeset does more): inline bold/italic/code/link attributes, keep-with-next beyond a
 * heading's first following line, widows/orphans, bookmarks, links.
 *
 * Build: cc -O2 reference.c -o reference $(pkg-config --cflags --libs pangocairo)
 */
#include <pango/pangocairo.h>
#include <cairo-pdf.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define PAGE_W 595.2756   /* A4 in points */
#define PAGE_H 841.8898
#define MARGIN 56.6929    /* 2cm */
#define GAP 12.0
#define BODY 10.0
#define LEADING 1.2
#define PARA_SKIP 0.0     /* body paragraphs: no extra space, as RT's default body style */

typedef struct {
    cairo_surface_t *surface;
    cairo_t *cr;
    PangoContext *ctx;
    PangoFontDescription *footer_font;
    double col_w;
    int page, col;        /* current page (1-based), column (0/1) */
    double y;             /* top of the next line, in points from the page top */
} Flow;

static double col_x(const Flow *f) { return MARGIN + f->col * (f->col_w + GAP); }

static void finish_page(Flow *f) {
    /* Footer: the page number centred in the bottom margin, as the RT front matter asks. */
    char num[16];
    snprintf(num, sizeof num, "%d", f->page);
    PangoLayout *l = pango_layout_new(f->ctx);
    pango_layout_set_font_description(l, f->footer_font);
    pango_layout_set_text(l, num, -1);
    int w, h;
    pango_layout_get_size(l, &w, &h);
    cairo_move_to(f->cr, (PAGE_W - w / (double)PANGO_SCALE) / 2, PAGE_H - MARGIN / 2 - h / (2.0 * PANGO_SCALE));
    pango_cairo_show_layout(f->cr, l);
    g_object_unref(l);
    cairo_show_page(f->cr);
}

static void next_column(Flow *f) {
    if (++f->col == 2) { finish_page(f); f->page++; f->col = 0; }
    f->y = MARGIN;
}

/* Lay out one paragraph and place its lines. need: lines that must fit with the first one
 * (a heading keeps its first following line: approximated as "room for 2 more body lines"). */
static void place(Flow *f, const char *text, PangoFontDescription *font, double size,
                  int justify, double indent_left, double hang, double before, double after,
                  double keep_below) {
    double lh = size * LEADING;
    PangoLayout *l = pango_layout_new(f->ctx);
    pango_layout_set_font_description(l, font);
    pango_layout_set_width(l, (int)((f->col_w - indent_left) * PANGO_SCALE));
    pango_layout_set_wrap(l, PANGO_WRAP_WORD_CHAR);
    pango_layout_set_justify(l, justify);
    if (hang > 0) pango_layout_set_indent(l, (int)(-hang * PANGO_SCALE));
    pango_layout_set_text(l, text, -1);

    const double bottom = PAGE_H - MARGIN;
    if (f->y > MARGIN) f->y += before;               /* no space before at a column top */
    if (f->y + lh + keep_below > bottom) next_column(f);

    PangoLayoutIter *it = pango_layout_get_iter(l);
    do {
        PangoRectangle logical;
        pango_layout_iter_get_line_extents(it, NULL, &logical);
        if (f->y + lh > bottom) next_column(f);
        /* Centre the line's ascent+descent in the line box (half-leading above and below). */
        double asc = -pango_units_to_double(logical.y - pango_layout_iter_get_baseline(it));
        double hgt = pango_units_to_double(logical.height);
        double baseline = f->y + (lh - hgt) / 2 + asc;
        cairo_move_to(f->cr, col_x(f) + indent_left + pango_units_to_double(logical.x), baseline);
        pango_cairo_show_layout_line(f->cr, pango_layout_iter_get_line_readonly(it));
        f->y += lh;
    } while (pango_layout_iter_next_line(it));
    pango_layout_iter_free(it);
    g_object_unref(l);
    f->y += after;
}

int main(int argc, char **argv) {
    if (argc != 3) { fprintf(stderr, "usage: %s IN.txt OUT.pdf\n", argv[0]); return 2; }
    FILE *in = fopen(argv[1], "r");
    if (!in) { perror(argv[1]); return 1; }

    Flow f = {0};
    f.col_w = (PAGE_W - 2 * MARGIN - GAP) / 2;
    f.surface = cairo_pdf_surface_create(argv[2], PAGE_W, PAGE_H);
    f.cr = cairo_create(f.surface);
    /* One font map and one context for the whole document, at 72 dpi so 10pt is 10 PDF points. */
    PangoFontMap *fm = pango_cairo_font_map_new();
    pango_cairo_font_map_set_resolution(PANGO_CAIRO_FONT_MAP(fm), 72);
    f.ctx = pango_font_map_create_context(fm);
    pango_cairo_update_context(f.cr, f.ctx);
    pango_cairo_context_set_resolution(f.ctx, 72);

    PangoFontDescription *body = pango_font_description_from_string("DejaVu Serif 10");
    PangoFontDescription *h1 = pango_font_description_from_string("DejaVu Serif Bold 16");
    PangoFontDescription *h2 = pango_font_description_from_string("DejaVu Serif Bold 13");
    PangoFontDescription *mono = pango_font_description_from_string("DejaVu Sans Mono 9");
    f.footer_font = body;
    f.page = 1;
    f.y = MARGIN;
    cairo_set_source_rgb(f.cr, 0, 0, 0);

    char *line = NULL;
    size_t cap = 0;
    ssize_t n;
    int prev_code = 0;
    while ((n = getline(&line, &cap, in)) > 0) {
        if (line[n - 1] == '\n') line[--n] = 0;
        if (n == 0) continue;
        int code = strncmp(line, "CODE\t", 5) == 0;
        if (prev_code && !code) f.y += BODY * 0.5;    /* space after a code block */
        if (!strncmp(line, "H1\t", 3))
            place(&f, line + 3, h1, 16, 0, 0, 0, 16, 4, 2 * BODY * LEADING);
        else if (!strncmp(line, "H2\t", 3))
            place(&f, line + 3, h2, 13, 0, 0, 0, 10, 3, 2 * BODY * LEADING);
        else if (!strncmp(line, "LI\t", 3))          /* marker hangs; wrapped lines at the text edge */
            place(&f, line + 3, body, BODY, 1, 0, 14, 0, 0, 0);
        else if (code)
            place(&f, line + 5, mono, 9, 0, 0, 0, prev_code ? 0 : BODY * 0.5, 0, 0);
        else
            place(&f, line, body, BODY, 1, 0, 0, PARA_SKIP, 0, 0);
        prev_code = code;
    }
    free(line);
    fclose(in);
    finish_page(&f);

    cairo_destroy(f.cr);
    cairo_surface_finish(f.surface);
    cairo_status_t st = cairo_surface_status(f.surface);
    cairo_surface_destroy(f.surface);
    pango_font_description_free(body);
    pango_font_description_free(h1);
    pango_font_description_free(h2);
    pango_font_description_free(mono);
    g_object_unref(f.ctx);
    g_object_unref(fm);
    if (st != CAIRO_STATUS_SUCCESS) { fprintf(stderr, "cairo: %s\n", cairo_status_to_string(st)); return 1; }
    return 0;
}
