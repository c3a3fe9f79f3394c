/*
 * swar.h - SWAR: eight bytes in a uint64_t, for the portable paths of
 * the scanners that have vector ones (skel.c, in.c), so that processors
 * without a vector unit jenc knows (or x86 built without SSE2) do not go
 * a byte at a time.  Inline functions only.
 */
#ifndef JENC_SWAR_H
#define JENC_SWAR_H

#include <stdint.h>
#include <string.h>

#define SW_ONES UINT64_C(0x0101010101010101)
#define SW_HIGH UINT64_C(0x8080808080808080)
#define SW_LOW7 UINT64_C(0x7f7f7f7f7f7f7f7f)

/* p[0..8) with p[j] as byte j of the word, from the low end, whatever
 * the processor's byte order. */
static inline uint64_t
sw_load(const unsigned char *p)
{
	uint64_t w;

	memcpy(&w, p, sizeof w);
#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_BIG_ENDIAN__
	w = __builtin_bswap64(w);
#endif
	return w;
}

/* 0x80 in the bytes of w equal to c, 0 in the others (exact: the sum
 * of the low seven bits does not carry out of a byte). */
static inline uint64_t
sw_eq(uint64_t w, unsigned char c)
{
	uint64_t t = w ^ (SW_ONES * c);

	return ~(((t & SW_LOW7) + SW_LOW7) | t) & SW_HIGH;
}

/* The high bits of the bytes of h (0x80 or 0), byte j's as bit j. */
static inline uint64_t
sw_bits(uint64_t h)
{
	return (h >> 7) * UINT64_C(0x0102040810204080) >> 56;
}

/* 0x80 in the bytes of w below n (1 to 0x80), 0 in the others (exact, as
 * sw_eq). */
static inline uint64_t
sw_lt(uint64_t w, unsigned char n)
{
	return ~(((w & SW_LOW7) + SW_ONES * (0x80u - n)) | w) & SW_HIGH;
}

#endif
