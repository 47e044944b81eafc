// librsvg: SVG images drawn as vectors through cairo. Its own module so no other shim changes.
#ifndef TYPESET_CRSVG_SHIM_H
#define TYPESET_CRSVG_SHIM_H
#include <librsvg/rsvg.h>
#endif
