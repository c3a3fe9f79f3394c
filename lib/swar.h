/*
 * swar.h - SWAR: eight bytes in a uint64_t, for the portable paths of
 * the scanners that have vector ones (skel.c, in.c, scan.h), so that
 * processors without a vector unit jenc knows (or x86 built without SSE2)
 * do not go a byte at a time; its SW_ONES and SW_HIGH are the bit
 * constants of every word-at-a-time loop of lib/.  Inline functions
 * only.
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

/* For w7, a word with the high bit of each byte clear (w & SW_LOW7):
 * 0x80 in the bytes that differ from c (below 0x80), 0 in the high bit of
 * the others, and anything in the low seven bits (AND the result with
 * SW_HIGH).  Exact in two operations: a byte up to 0x7f plus 0x7f
 * carries into no other.  The ANDs of some give the bytes equal to none
 * of their c. */
static inline uint64_t
sw_ne7(uint64_t w7, unsigned char c)
{
	return (w7 ^ (SW_ONES * c)) + SW_LOW7;
}

/* The high bits of the bytes of h (0x80 or 0, nothing else), byte j's
 * as bit j: bit 8j + 7 of h goes to bit 56 + j of the product by
 * 2^(49 - 7j); the other partial products are distinct bits (no carry),
 * and none of them falls in the top byte. */
static inline uint64_t
sw_bits(uint64_t h)
{
	return h * UINT64_C(0x0002040810204081) >> 56;
}

/* The number of bits set in x: the instruction where the compiler may
 * use one, else SWAR (on x86-64 without -mpopcnt, __builtin_popcountll
 * calls libgcc's function of the same steps). */
static inline unsigned
sw_popcount(uint64_t x)
{
#if defined(__POPCNT__) || defined(__aarch64__)
	return (unsigned)__builtin_popcountll(x);
#else
	x -= x >> 1 & UINT64_C(0x5555555555555555);
	x = (x & UINT64_C(0x3333333333333333)) +
	    (x >> 2 & UINT64_C(0x3333333333333333));
	x = (x + (x >> 4)) & UINT64_C(0x0f0f0f0f0f0f0f0f);
	return (unsigned)(x * SW_ONES >> 56);
#endif
}

/* 0x80 in the bytes of w below n (1 to 0x80), 0 in the others (exact, as
 * sw_eq). */
static inline uint64_t
sw_lt(uint64_t w, unsigned char n)
{
	return ~(((w & SW_LOW7) + SW_ONES * (0x80u - n)) | w) & SW_HIGH;
}

/* s[0..n) to d for n <= 32: two moves of 16, 8 or 4 bytes that may
 * overlap (or three single bytes), not a call; for the short texts the
 * encoder and the log view copy most often. */
static inline void
sw_copy32(char *d, const char *s, size_t n)
{
	if (n >= 16) {
		char a[16], b[16];

		memcpy(a, s, 16);
		memcpy(b, s + n - 16, 16);
		memcpy(d, a, 16);
		memcpy(d + n - 16, b, 16);
	} else if (n >= 8) {
		uint64_t a, b;

		memcpy(&a, s, 8);
		memcpy(&b, s + n - 8, 8);
		memcpy(d, &a, 8);
		memcpy(d + n - 8, &b, 8);
	} else if (n >= 4) {
		uint32_t a, b;

		memcpy(&a, s, 4);
		memcpy(&b, s + n - 4, 4);
		memcpy(d, &a, 4);
		memcpy(d + n - 4, &b, 4);
	} else if (n > 0) {
		d[0] = s[0];
		d[n / 2] = s[n / 2];
		d[n - 1] = s[n - 1];
	}
}

/* Are a[0..n) and b[0..n) the same bytes?  Up to 16 as two loads each
 * that may overlap, longer ones eight at a time first: a short key's
 * compare costs less than a call to memcmp. */
static inline int
sw_same(const char *a, const char *b, size_t n)
{
	uint64_t x, y, u, v;
	uint32_t i, j, k, m;

	for (; n > 16; n -= 8, a += 8, b += 8) {
		memcpy(&x, a, 8);
		memcpy(&u, b, 8);
		if (x != u)
			return 0;
	}
	if (n >= 8) {
		memcpy(&x, a, 8);
		memcpy(&y, a + n - 8, 8);
		memcpy(&u, b, 8);
		memcpy(&v, b + n - 8, 8);
		return ((x ^ u) | (y ^ v)) == 0;
	}
	if (n >= 4) {
		memcpy(&i, a, 4);
		memcpy(&j, a + n - 4, 4);
		memcpy(&k, b, 4);
		memcpy(&m, b + n - 4, 4);
		return ((i ^ k) | (j ^ m)) == 0;
	}
	return n == 0 || (a[0] == b[0] && a[n / 2] == b[n / 2] &&
	    a[n - 1] == b[n - 1]);
}

#endif
