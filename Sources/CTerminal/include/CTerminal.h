#ifndef CTERMINAL_H
#define CTERMINAL_H

#include <stdint.h>

/// wcwidth(3) for one Unicode scalar: its column count in the current locale, -1 when it is not
/// printable. Wrapped because Swift's Glibc module does not export wcwidth.
int cterminal_wcwidth(uint32_t scalar);

#endif
