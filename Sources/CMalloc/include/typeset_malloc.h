// glibc's malloc tuning, called directly (Swift's Glibc module leaves malloc.h out). Looking the functions up
// with dlsym instead took the dynamic loader's lock, which a thread loading libqpdf holds for milliseconds: the
// paginating thread waited there after lowering (issue 14, start-up).
#ifndef TYPESET_MALLOC_H
#define TYPESET_MALLOC_H

/// mallopt(3); returns 1 on success, 0 on error or where there is no glibc.
int typeset_mallopt(int option, int value);
/// malloc_trim(0): returns 1 when memory was given back.
int typeset_malloc_trim(void);

#endif
