// See typeset_cleanup.h. Written in C because a signal handler may only touch memory that is ready
// before the signal: here a fixed table of pointers to private copies of the paths.
#include "typeset_cleanup.h"

#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

// Enough for the largest build: one temporary per page image at the 10,000-page limit, plus a few.
#define SLOTS 16384

static char *volatile paths[SLOTS];
static volatile sig_atomic_t installed = 0;
static int hint = 0;   // where the search for a free slot starts: slots are mostly taken in order

static void remove_and_reraise(int sig) {
    for (int i = 0; i < SLOTS; i++) {
        char *path = paths[i];
        if (path) unlink(path);
    }
    signal(sig, SIG_DFL);
    raise(sig);
}

void typeset_cleanup_install(void) {
    if (installed) return;
    installed = 1;
    struct sigaction action;
    memset(&action, 0, sizeof action);
    action.sa_handler = remove_and_reraise;
    sigemptyset(&action.sa_mask);
    int signals[] = {SIGTERM, SIGINT, SIGHUP, SIGPIPE};
    for (unsigned i = 0; i < sizeof signals / sizeof signals[0]; i++) {
        struct sigaction old;
        // A signal ignored by the parent (nohup, a background job's SIGINT) stays ignored.
        if (sigaction(signals[i], NULL, &old) == 0 && old.sa_handler == SIG_IGN) continue;
        sigaction(signals[i], &action, NULL);
    }
}

int typeset_cleanup_remember(const char *path) {
    for (int k = 0; k < SLOTS; k++) {
        int i = (hint + k) % SLOTS;
        if (paths[i] == NULL) {
            hint = (i + 1) % SLOTS;
            char *copy = strdup(path);
            if (!copy) return -1;
            paths[i] = copy;
            return i;
        }
    }
    return -1;
}

void typeset_cleanup_forget(int slot) {
    if (slot < 0 || slot >= SLOTS) return;
    char *path = paths[slot];
    paths[slot] = NULL;
    free(path);
    if (slot < hint) hint = slot;
}
