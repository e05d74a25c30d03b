#define _GNU_SOURCE
#include <locale.h>
#include <pthread.h>
#include <wchar.h>

#include "CDisplayWidth.h"

static locale_t utf8_locale;
static pthread_once_t utf8_locale_once = PTHREAD_ONCE_INIT;

static void open_utf8_locale(void) {
    utf8_locale = newlocale(LC_CTYPE_MASK, "C.UTF-8", (locale_t)0);
}

int notifytop_wcwidth(uint32_t scalar) {
    pthread_once(&utf8_locale_once, open_utf8_locale);
    if (utf8_locale == (locale_t)0) return -2;
    // uselocale is per thread: other threads keep their locale meanwhile.
    locale_t previous = uselocale(utf8_locale);
    int width = wcwidth((wchar_t)scalar);
    uselocale(previous);
    return width;
}
