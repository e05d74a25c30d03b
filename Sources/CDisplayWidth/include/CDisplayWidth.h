#ifndef CDISPLAYWIDTH_H
#define CDISPLAYWIDTH_H

#include <stdint.h>

/// The C library's `wcwidth` for one Unicode scalar in the C.UTF-8 locale, whatever locale the
/// process runs in (ncursesw and the terminal count cells with the same table): 0, 1 or 2 cells,
/// -1 for a character that is not printable, and -2 when the C.UTF-8 locale is not available.
int notifytop_wcwidth(uint32_t scalar);

#endif
