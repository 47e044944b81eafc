#ifndef TYPESET_CPANGOCAIRO_SHIM_H
#define TYPESET_CPANGOCAIRO_SHIM_H
#include <pango/pangocairo.h>
#include <cairo.h>
#include <cairo-pdf.h>
#include <cairo-svg.h>
#endif
