// wcwidth(3), the columns a character takes on a terminal, for the shell's tables (RealmShell's
// Platform/Terminal.swift). glibc declares it only for X/Open, which Swift's Glibc module does
// not ask for. Header only: wcwidth is in libc, nothing else is linked.
#define _XOPEN_SOURCE 700
#include <wchar.h>

/// Columns of the Unicode scalar `scalar` in the current LC_CTYPE (-1: not printable).
static inline int realmsh_wcwidth(unsigned int scalar) { return wcwidth((wchar_t)scalar); }
