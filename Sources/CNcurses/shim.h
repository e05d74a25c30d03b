// The one C header NotifyCurses sees: ncursesw with its wide-character API switched on, plus
// static inline wrappers for what Swift cannot import (function-like macros and C globals).
#ifndef CNCURSES_SHIM_H
#define CNCURSES_SHIM_H

// SwiftPM drops pkg-config's -D flags, and without these the wide API (wget_wch, waddnwstr)
// is invisible.
#ifndef _XOPEN_SOURCE_EXTENDED
#define _XOPEN_SOURCE_EXTENDED 1
#endif
#ifndef NCURSES_WIDECHAR
#define NCURSES_WIDECHAR 1
#endif

#include <locale.h>
#include <langinfo.h>
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/curses.h>

// C globals: Swift 6 refuses to touch mutable globals, so read them through functions.
static inline WINDOW *cn_stdscr(void) { return stdscr; }
static inline int cn_colors(void) { return COLORS; }
static inline int cn_color_pairs(void) { return COLOR_PAIRS; }
static inline int cn_lines(void) { return LINES; }
static inline int cn_cols(void) { return COLS; }

// newterm on the process's own stdout/stdin: returns NULL on a bad TERM instead of exiting.
static inline SCREEN *cn_newterm(void) { return newterm(NULL, stdout, stdin); }

// Function-like macros.
static inline int cn_key_f(int n) { return KEY_F(n); }
static inline attr_t cn_color_pair(int n) { return (attr_t)COLOR_PAIR(n); }
static inline attr_t cn_a_normal(void) { return A_NORMAL; }
static inline attr_t cn_a_bold(void) { return A_BOLD; }
static inline attr_t cn_a_reverse(void) { return A_REVERSE; }
static inline attr_t cn_a_dim(void) { return A_DIM; }
static inline attr_t cn_a_underline(void) { return A_UNDERLINE; }

// Mouse masks (function-like macros in curses.h).
static inline mmask_t cn_button1_clicked(void) { return BUTTON1_CLICKED; }
static inline mmask_t cn_button1_double_clicked(void) { return BUTTON1_DOUBLE_CLICKED; }
static inline mmask_t cn_button1_pressed(void) { return BUTTON1_PRESSED; }
static inline mmask_t cn_button4_pressed(void) { return BUTTON4_PRESSED; }
static inline mmask_t cn_button5_pressed(void) { return BUTTON5_PRESSED; }

// Sets a window's attributes and colour pair in one call (wattr_set may be a macro).
static inline void cn_set_attr(WINDOW *w, attr_t attrs, short pair) { wattr_set(w, attrs, pair, NULL); }

// Writes a UTF-8 byte string at the cursor; ncursesw decodes it in the current locale.
static inline int cn_addnstr(WINDOW *w, const char *s, int n) { return waddnstr(w, s, n); }

#endif
