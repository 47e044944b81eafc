// Temporary output files removed when SIGTERM, SIGINT, SIGHUP or SIGPIPE end a build (`make` interrupted,
// `timeout`, Ctrl-C, `typeset -o - | head`): the handler only calls unlink(2) on paths copied in beforehand, which is
// async-signal-safe, then re-raises the signal with its default action so the exit status stays right.
#ifndef TYPESET_CLEANUP_H
#define TYPESET_CLEANUP_H

/// Installs the handlers (once; later calls do nothing).
void typeset_cleanup_install(void);
/// Remembers `path` for removal on a signal; returns a slot for typeset_cleanup_forget, or -1 when full.
int typeset_cleanup_remember(const char *path);
/// Stops remembering the slot (after the file was renamed into place or removed).
void typeset_cleanup_forget(int slot);

#endif
