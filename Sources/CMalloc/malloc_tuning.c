// See typeset_malloc.h.
#include "typeset_malloc.h"

#include <stdlib.h>  // first: it defines __GLIBC__, which the test below reads
#if defined(__GLIBC__)
#include <malloc.h>
int typeset_mallopt(int option, int value) { return mallopt(option, value); }
int typeset_malloc_trim(void) { return malloc_trim(0); }
#else
int typeset_mallopt(int option, int value) { (void)option; (void)value; return 0; }
int typeset_malloc_trim(void) { return 0; }
#endif
