/*
 * skel.c - the skeleton of JSON text that jsmn reads instead of the text.
 *
 * The skeleton of p[0..n) is the same text with the whitespace outside
 * strings, the bodies of strings and all but the first byte of each
 * primitive left out: `{"id": 12, "s": "a b", "t": true }` becomes
 * `{"":1,"":"","":t }`.  jsmn (JSMN_STRICT) makes the same tokens of it
 * as of the text, in fewer steps: it skips whitespace and scans string
 * bodies and primitives byte by byte; the only effect whitespace has on
 * it is to end a primitive, so one whitespace byte is kept after each
 * primitive, and of a primitive jsmn looks at the first byte only (the
 * others it only checks for control and non-ASCII bytes, which are
 * refused here).  For each skeleton byte, map[] holds its index in p,
 * through which the reader turns token positions back into input
 * positions: a string's are those of its quotes, a primitive's those of
 * its first byte and of the byte that ends it, which is the next one
 * kept.
 *
 * What jsmn checks in a string body and so no longer sees (its escapes:
 * a known character after each backslash, four hex digits after \u; no
 * NUL byte) is checked here, and what the reader checks in one (no
 * control byte, valid UTF-8), and so is everything that would make jsmn
 * read the skeleton otherwise than the text: a primitive glued to a
 * quote, '{', '[' or ':' (jsmn takes all of `1"a b"` as one primitive up
 * to the space), a backslash, control or non-ASCII byte outside strings,
 * a raw control byte or invalid UTF-8 inside one.  Any of these, valid
 * JSON or not, and the whole piece is refused: the reader then gives
 * jsmn the text itself (its exact path), which reports an error with
 * its exact message and position.  The skeleton ends after the last byte of p that no token
 * spans (a closing quote, a bracket, ',' or ':' outside strings, or the
 * whitespace kept after a primitive), so that jsmn can go on from there
 * in the text.
 *
 * The text is classified 64 bytes at a time into bit masks (quotes,
 * backslashes, whitespace, ...); strings are found from the quotes not
 * escaped with a prefix XOR (a carry-less multiply from AVX2 on); the
 * bytes kept are taken out of each block by their mask.  The classifier,
 * the prefix XOR and that last step are the parts that depend on the
 * processor: on x86-64 SSE2, AVX2, AVX-512BW, AVX-512 VBMI2 (its byte
 * compress), the widest the processor has chosen once; NEON on aarch64;
 * elsewhere SWAR, portable C eight bytes at a time.  A classifier of one
 * byte at a time is the reference the others are tested against.
 */
#include <stdint.h>
#include <string.h>

#if defined(__x86_64__) && defined(__SSE2__) && defined(__GNUC__)
#define SKEL_X86 1
#include <immintrin.h>
#endif

/* aarch64 always has NEON: no choice at run time */
#if defined(__aarch64__) && defined(__ARM_NEON) && \
    defined(__BYTE_ORDER__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define SKEL_NEON 1
#include <arm_neon.h>
#endif

#include "internal.h"
#include "scan.h"
#include "swar.h"
#ifdef SKEL_X86
#include "skel_tab.h"
#endif

/* Bit i of each mask is about byte i of a 64-byte block. */
struct masks {
	uint64_t q;	/* '"' */
	uint64_t bs;	/* '\\' */
	uint64_t ws;	/* space, \t, \n, \r */
	uint64_t st;	/* { } [ ] , : */
	uint64_t glue;	/* { [ : (a primitive goes on through them; SWAR: all of st) */
	uint64_t lt;	/* below 0x20, or from 0x80 (signed < 0x20) */
	uint64_t hi;	/* from 0x80 */
	uint64_t del;	/* 0x7f */
};

/* ---- the classifiers ------------------------------------------------- */

static void
skel_classify_scalar(const unsigned char *b, struct masks *m, const void *k)
{
	int i;

	(void)k;
	memset(m, 0, sizeof(*m));
	for (i = 0; i < 64; i++) {
		unsigned c = b[i];
		uint64_t bit = (uint64_t)1 << i;
		int g = c == '{' || c == '[' || c == ':';

		m->q |= c == '"' ? bit : 0;
		m->bs |= c == '\\' ? bit : 0;
		m->ws |= c == ' ' || c == '\t' || c == '\n' || c == '\r' ?
		    bit : 0;
		m->st |= g || c == '}' || c == ']' || c == ',' ? bit : 0;
		m->glue |= g ? bit : 0;
		m->lt |= c < 0x20 || c >= 0x80 ? bit : 0;
		m->hi |= c >= 0x80 ? bit : 0;
		m->del |= c == 0x7f ? bit : 0;
	}
}

/*
 * The portable classifier that processors without a vector unit jenc
 * knows run (and x86 built without SSE2): SWAR, eight bytes of the block
 * in a uint64_t at a time (swar.h).  Each compare is made on the low
 * seven bits of the bytes, as "differs" (sw_ne7: two operations), a
 * group of them ANDed and the bytes from 0x80 ORed in; the high bits of
 * the bytes that match none are gathered into eight bits of the
 * complement of a mask by one multiply (sw_bits).  Unrolled: the eight
 * shifts are constants.  glue is not gathered: skel_block picks it out
 * of the few structural bytes that a primitive runs into
 * (skel_glue_of).  Against the first SWAR classifier (sw_eq, five
 * operations a compare, and a test for each rare class), the portable
 * jenc -c ran the NDJSON of bench/ in 16% fewer instructions.
 */
static void
skel_classify_swar(const unsigned char *b, struct masks *m, const void *k)
{
	/* the complements of q, ws and st */
	uint64_t nq = 0, nws = 0, nst = 0;
	uint64_t bs = 0, lt = 0, hi = 0, del = 0;
	int i;

	(void)k;
#pragma GCC unroll 8
	for (i = 0; i < 64; i += 8) {
		uint64_t w = sw_load(b + i), w7 = w & SW_LOW7;
		/* '{' and '[' are 0x7b and 0x5b, '}' and ']' 0x7d and 0x5d */
		uint64_t w20 = w7 | SW_ONES * 0x20;
		uint64_t ng = sw_ne7(w20, '{') & sw_ne7(w7, ':');
		uint64_t ns = sw_ne7(w7, ' ');
		uint64_t nbs = sw_ne7(w7, '\\');
		/* a byte below 0x20 (its low seven bits plus 0x60 do not
		 * reach 0x80, and its high bit is clear), from 0x7f (+ 1
		 * reaches 0x80) or a backslash: rare in most text, a test is
		 * cheaper */
		uint64_t lo = w7 + SW_ONES * 0x60;
		uint64_t rare = ((w7 + SW_ONES) | w | ~(lo & nbs)) & SW_HIGH;

		nq |= sw_bits((sw_ne7(w7, '"') | w) & SW_HIGH) << i;
		nst |= sw_bits(((ng & sw_ne7(w20, '}') & sw_ne7(w7, ',')) |
		    w) & SW_HIGH) << i;
		if (rare != 0) {
			ns &= sw_ne7(w7, '\t') & sw_ne7(w7, '\n') &
			    sw_ne7(w7, '\r');
			bs |= sw_bits(~(nbs | w) & SW_HIGH) << i;
			lt |= sw_bits(~(lo | w) & SW_HIGH) << i;
			hi |= sw_bits(w & SW_HIGH) << i;
			del |= sw_bits(~(sw_ne7(w7, 0x7f) | w) & SW_HIGH) << i;
		}
		nws |= sw_bits((ns | w) & SW_HIGH) << i;
	}
	m->q = ~nq;
	m->bs = bs;
	m->ws = ~nws;
	m->st = ~nst;
	m->glue = ~nst;		/* all of st: skel_block takes skel_glue_of */
	m->lt = lt | hi;
	m->hi = hi;
	m->del = del;
}

#ifdef SKEL_NEON
/* The 64 bytes of which a, b, c, d (16 each, in this order) hold 0xff or
 * 0, as a mask: each byte ANDed with its bit, then three pairwise adds
 * (there is no movemask). */
static inline uint64_t
skel_neon_bits(uint8x16_t a, uint8x16_t b, uint8x16_t c, uint8x16_t d)
{
	static const uint8_t bit[16] = { 1, 2, 4, 8, 16, 32, 64, 128,
	    1, 2, 4, 8, 16, 32, 64, 128 };
	uint8x16_t k = vld1q_u8(bit);
	uint8x16_t s0 = vpaddq_u8(vandq_u8(a, k), vandq_u8(b, k));
	uint8x16_t s1 = vpaddq_u8(vandq_u8(c, k), vandq_u8(d, k));

	s0 = vpaddq_u8(s0, s1);
	s0 = vpaddq_u8(s0, s0);
	return vgetq_lane_u64(vreinterpretq_u64_u8(s0), 0);
}

static void
skel_classify_neon(const unsigned char *b, struct masks *m, const void *kv)
{
	uint8x16_t q[4], bs[4], ws[4], st[4], glue[4], lt[4], hi[4], del[4];
	int j;

	(void)kv;
	for (j = 0; j < 4; j++) {
		uint8x16_t v = vld1q_u8(b + 16 * j);
		/* '{' '[' and '}' ']' differ only in 0x20 */
		uint8x16_t v20 = vorrq_u8(v, vdupq_n_u8(0x20));
		uint8x16_t g = vorrq_u8(vceqq_u8(v20, vdupq_n_u8('{')),
		    vceqq_u8(v, vdupq_n_u8(':')));

		q[j] = vceqq_u8(v, vdupq_n_u8('"'));
		bs[j] = vceqq_u8(v, vdupq_n_u8('\\'));
		ws[j] = vorrq_u8(vorrq_u8(vceqq_u8(v, vdupq_n_u8(' ')),
		    vceqq_u8(v, vdupq_n_u8('\t'))), vorrq_u8(vceqq_u8(v,
		    vdupq_n_u8('\n')), vceqq_u8(v, vdupq_n_u8('\r'))));
		glue[j] = g;
		st[j] = vorrq_u8(vorrq_u8(g, vceqq_u8(v20, vdupq_n_u8('}'))),
		    vceqq_u8(v, vdupq_n_u8(',')));
		/* signed below 0x20: below 0x20 or from 0x80 */
		lt[j] = vcltq_s8(vreinterpretq_s8_u8(v), vdupq_n_s8(0x20));
		hi[j] = vcgeq_u8(v, vdupq_n_u8(0x80));
		del[j] = vceqq_u8(v, vdupq_n_u8(0x7f));
	}
#define NEON_MASK(x) skel_neon_bits((x)[0], (x)[1], (x)[2], (x)[3])
	m->q = NEON_MASK(q);
	m->bs = NEON_MASK(bs);
	m->ws = NEON_MASK(ws);
	m->st = NEON_MASK(st);
	m->glue = NEON_MASK(glue);
	m->lt = NEON_MASK(lt);
	m->hi = NEON_MASK(hi);
	m->del = NEON_MASK(del);
#undef NEON_MASK
}
#endif

#ifdef SKEL_X86
/*
 * The bytes the vector classifiers compare with, broadcast into vectors
 * k[] (in this order) once, before the loop: left in it, the compiler
 * builds each again for every block.
 */
enum {
	K_LBRACE, K_LBRACK, K_COLON, K_2, K_COMMA, K_SP, K_NL, K_TAB, K_CR,
	K_QUOTE, K_BSLASH, K_DEL, NK
};
static const unsigned char kbytes[NK] = {
	'{', '[', ':', 2, ',', ' ', '\n', '\t', '\r', '"', '\\', 0x7f,
};

#define SET_CONSTS(k, SET1)						\
	do {								\
		int j_;							\
									\
		for (j_ = 0; j_ < NK; j_++)				\
			(k)[j_] = SET1((char)kbytes[j_]);		\
	} while (0)

/*
 * The SSE2 and AVX2 classifiers: the same compares over 64 / W vectors of
 * W bytes, spelled with one instruction set's intrinsics (T the vector
 * type, k its constants, MASK its movemask as a uint64_t).  '}' and ']'
 * are '{' and '[' + 2; ',' stands alone.
 */
#define CLASSIFY_VECTORS(b, m, k, W, T, LOAD, EQ, OR, SUB, GT, MASK)	\
	do {								\
		uint64_t r_[8] = { 0 };					\
		int i_;							\
									\
		for (i_ = 0; i_ < 64 / (W); i_++) {			\
			T v = LOAD((const T *)(const void *)		\
			    ((b) + (W) * i_));				\
			T glue = OR(OR(EQ(v, (k)[K_LBRACE]),		\
			    EQ(v, (k)[K_LBRACK])), EQ(v, (k)[K_COLON])); \
			T v2 = SUB(v, (k)[K_2]);			\
			T st = OR(OR(glue, OR(EQ(v2, (k)[K_LBRACE]),	\
			    EQ(v2, (k)[K_LBRACK]))), EQ(v, (k)[K_COMMA])); \
			T ws = OR(OR(EQ(v, (k)[K_SP]), EQ(v, (k)[K_NL])), \
			    OR(EQ(v, (k)[K_TAB]), EQ(v, (k)[K_CR])));	\
			int sh_ = (W) * i_;				\
									\
			r_[0] |= MASK(EQ(v, (k)[K_QUOTE])) << sh_;	\
			r_[1] |= MASK(EQ(v, (k)[K_BSLASH])) << sh_;	\
			r_[2] |= MASK(ws) << sh_;			\
			r_[3] |= MASK(st) << sh_;			\
			r_[4] |= MASK(glue) << sh_;			\
			r_[5] |= MASK(GT((k)[K_SP], v)) << sh_;		\
			r_[6] |= MASK(v) << sh_;			\
			r_[7] |= MASK(EQ(v, (k)[K_DEL])) << sh_;	\
		}							\
		(m)->q = r_[0];						\
		(m)->bs = r_[1];					\
		(m)->ws = r_[2];					\
		(m)->st = r_[3];					\
		(m)->glue = r_[4];					\
		(m)->lt = r_[5];					\
		(m)->hi = r_[6];					\
		(m)->del = r_[7];					\
	} while (0)

static inline __attribute__((always_inline)) uint64_t
skel_mm16(__m128i v)
{
	return (uint64_t)(unsigned)_mm_movemask_epi8(v);
}

static void
skel_classify_sse2(const unsigned char *b, struct masks *m, const void *kv)
{
	const __m128i *k = kv;

	CLASSIFY_VECTORS(b, m, k, 16, __m128i, _mm_loadu_si128,
	    _mm_cmpeq_epi8, _mm_or_si128, _mm_sub_epi8, _mm_cmpgt_epi8,
	    skel_mm16);
}

/*
 * The AVX2 classifier looks each byte's class up in two 16-byte tables,
 * by its low and by its high nibble (vpshufb), and ANDs the two: a
 * class is a set of bytes whose high nibbles, crossed with their low
 * ones, give the set again.  Bit by bit:
 */
#define C_SP	0x01	/* ' ': high 2, low 0 */
#define C_TNR	0x02	/* \t \n \r: high 0, low 9 a d */
#define C_OPEN	0x04	/* [ {: high 5 7, low b */
#define C_CLOSE	0x08	/* ] }: high 5 7, low d */
#define C_COMMA	0x10	/* ',': high 2, low c */
#define C_COLON	0x20	/* ':': high 3, low a */
#define C_CTL	0x80	/* below 0x20: high 0 1 */
static const unsigned char nib_lo[16] = {
	C_CTL | C_SP, C_CTL, C_CTL, C_CTL, C_CTL, C_CTL, C_CTL, C_CTL, C_CTL,
	C_CTL | C_TNR, C_CTL | C_TNR | C_COLON, C_CTL | C_OPEN,
	C_CTL | C_COMMA, C_CTL | C_TNR | C_CLOSE, C_CTL, C_CTL,
};
static const unsigned char nib_hi[16] = {
	C_CTL | C_TNR, C_CTL, C_SP | C_COMMA, C_COLON, 0, C_OPEN | C_CLOSE, 0,
	C_OPEN | C_CLOSE,
};

/* The masks of 32 bytes v: bit i of each about v's byte i. */
struct masks32 {
	uint32_t q, bs, ws, st, glue, ctl, hi, del;
};

__attribute__((target("avx2"))) static inline uint32_t
skel_mm32(__m256i v)
{
	return (uint32_t)_mm256_movemask_epi8(v);
}

/* Bytes of c with none of the bits b. */
__attribute__((target("avx2"))) static inline uint32_t
skel_none32(__m256i c, __m256i b)
{
	return skel_mm32(_mm256_cmpeq_epi8(_mm256_and_si256(c, b),
	    _mm256_setzero_si256()));
}

__attribute__((target("avx2"))) static inline struct masks32
skel_classify32(__m256i v, const __m256i *k)
{
	struct masks32 m;
	/* vpshufb gives 0 for a byte from 0x80: no class */
	__m256i c = _mm256_and_si256(_mm256_shuffle_epi8(k[0], v),
	    _mm256_shuffle_epi8(k[1], _mm256_and_si256(
	    _mm256_srli_epi16(v, 4), k[2])));

	m.q = skel_mm32(_mm256_cmpeq_epi8(v, k[3]));
	m.bs = skel_mm32(_mm256_cmpeq_epi8(v, k[4]));
	m.del = skel_mm32(_mm256_cmpeq_epi8(v, k[5]));
	m.ws = ~skel_none32(c, k[6]);
	m.st = ~skel_none32(c, k[7]);
	m.glue = ~skel_none32(c, k[8]);
	m.ctl = skel_mm32(c);
	m.hi = skel_mm32(v);
	return m;
}

/* The constants of skel_classify_avx2, k[0] to k[8]. */
#define AVX2_CONSTS(k)							\
	do {								\
		(k)[0] = _mm256_broadcastsi128_si256(_mm_loadu_si128(	\
		    (const __m128i *)(const void *)nib_lo));		\
		(k)[1] = _mm256_broadcastsi128_si256(_mm_loadu_si128(	\
		    (const __m128i *)(const void *)nib_hi));		\
		(k)[2] = _mm256_set1_epi8(0x0f);			\
		(k)[3] = _mm256_set1_epi8('"');				\
		(k)[4] = _mm256_set1_epi8('\\');			\
		(k)[5] = _mm256_set1_epi8(0x7f);			\
		(k)[6] = _mm256_set1_epi8(C_SP | C_TNR);		\
		(k)[7] = _mm256_set1_epi8(C_OPEN | C_CLOSE | C_COMMA |	\
		    C_COLON);						\
		(k)[8] = _mm256_set1_epi8(C_OPEN | C_COLON);		\
	} while (0)

#define JOIN64(a, b) ((uint64_t)(a) | (uint64_t)(b) << 32)

__attribute__((target("avx2"))) static void
skel_classify_avx2(const unsigned char *b, struct masks *m, const void *kv)
{
	const __m256i *k = kv;
	struct masks32 l = skel_classify32(_mm256_loadu_si256(
	    (const __m256i *)(const void *)b), k);
	struct masks32 h = skel_classify32(_mm256_loadu_si256(
	    (const __m256i *)(const void *)(b + 32)), k);

	m->q = JOIN64(l.q, h.q);
	m->bs = JOIN64(l.bs, h.bs);
	m->ws = JOIN64(l.ws, h.ws);
	m->st = JOIN64(l.st, h.st);
	m->glue = JOIN64(l.glue, h.glue);
	m->hi = JOIN64(l.hi, h.hi);
	m->lt = JOIN64(l.ctl, h.ctl) | m->hi;
	m->del = JOIN64(l.del, h.del);
}

__attribute__((target("avx512f,avx512bw"))) static void
skel_classify_avx512(const unsigned char *b, struct masks *m, const void *kv)
{
	const __m512i *k = kv;
	__m512i v = _mm512_loadu_si512((const void *)b);
	uint64_t glue = _mm512_cmpeq_epi8_mask(v, k[K_LBRACE]) |
	    _mm512_cmpeq_epi8_mask(v, k[K_LBRACK]) |
	    _mm512_cmpeq_epi8_mask(v, k[K_COLON]);
	__m512i v2 = _mm512_sub_epi8(v, k[K_2]);

	m->q = _mm512_cmpeq_epi8_mask(v, k[K_QUOTE]);
	m->bs = _mm512_cmpeq_epi8_mask(v, k[K_BSLASH]);
	m->ws = _mm512_cmpeq_epi8_mask(v, k[K_SP]) |
	    _mm512_cmpeq_epi8_mask(v, k[K_NL]) |
	    _mm512_cmpeq_epi8_mask(v, k[K_TAB]) |
	    _mm512_cmpeq_epi8_mask(v, k[K_CR]);
	m->glue = glue;
	m->st = glue | _mm512_cmpeq_epi8_mask(v2, k[K_LBRACE]) |
	    _mm512_cmpeq_epi8_mask(v2, k[K_LBRACK]) |
	    _mm512_cmpeq_epi8_mask(v, k[K_COMMA]);
	m->lt = _mm512_cmplt_epi8_mask(v, k[K_SP]);
	m->hi = _mm512_movepi8_mask(v);
	m->del = _mm512_cmpeq_epi8_mask(v, k[K_DEL]);
}
#endif

/* ---- the skeleton ------------------------------------------------------ */

/* Bit i set where an odd number of bits of x at or below i are. */
static inline uint64_t
skel_prefix_xor(uint64_t x)
{
	x ^= x << 1;
	x ^= x << 2;
	x ^= x << 4;
	x ^= x << 8;
	x ^= x << 16;
	x ^= x << 32;
	return x;
}

#ifdef SKEL_X86
/* The same in one carry-less multiply by all ones: bit i of the product
 * is the XOR of bits 0..i of x. */
__attribute__((target("pclmul"))) static inline uint64_t
skel_prefix_xor_clmul(uint64_t x)
{
	return (uint64_t)_mm_cvtsi128_si64(_mm_clmulepi64_si128(
	    _mm_cvtsi64_si128((long long)x), _mm_set1_epi8(-1), 0));
}
#endif

/*
 * The escaped bytes of a block: bs its backslashes, *carry 1 if its first
 * byte is escaped by the block before (and set for the next one).
 */
static inline uint64_t
skel_escaped(uint64_t bs, uint64_t *carry)
{
	uint64_t esc = *carry, b = bs & ~esc;

	*carry = 0;
	while (b != 0) {
		int j = __builtin_ctzll(b);

		if (j == 63) {
			*carry = 1;
			break;
		}
		esc |= (uint64_t)2 << j;
		b &= ~((uint64_t)3 << j);
	}
	return esc;
}

/* 1 if the escaped bytes e of the block at p[i] are all right, as far as
 * p[0..n) shows them.  (Out of line: few blocks hold escapes, and inlined
 * it took registers from skel_run's loop, 2% more of SSE2's skeleton.) */
static int __attribute__((noinline))
skel_escapes_ok(const unsigned char *p, size_t i, size_t n, uint64_t e)
{
	size_t len;

	for (; e != 0; e &= e - 1)
		if (scan_esc_len(p, i + (size_t)__builtin_ctzll(e) - 1, n,
		    &len) == JENC_E_SYNTAX)
			return 0;
	return 1;
}

/*
 * Write the bytes of blk (the block at p[i]) that keep marks (cnt of
 * them) to s, their indices in p to map, eight at a time, past the last
 * one too (s and map have room): one well-predicted round for most
 * blocks.  Returns cnt.
 */
static inline size_t
skel_extract_n(const unsigned char *blk, uint64_t keep, size_t cnt, size_t i,
    char *s, uint32_t *map)
{
	size_t j, at;

#define EXTRACT_ONE(e) \
	at = (size_t)__builtin_ctzll(keep | (uint64_t)1 << 63); \
	s[j + (e)] = (char)blk[at]; \
	map[j + (e)] = (uint32_t)(i + at); \
	keep &= keep - 1
	for (j = 0; j < cnt; j += 8) {
		EXTRACT_ONE(0); EXTRACT_ONE(1); EXTRACT_ONE(2); EXTRACT_ONE(3);
		EXTRACT_ONE(4); EXTRACT_ONE(5); EXTRACT_ONE(6); EXTRACT_ONE(7);
	}
#undef EXTRACT_ONE
	return cnt;
}

/* skel_extract_n, the bytes counted here (sw_popcount: where the processor
 * has no instruction for it, not a call to the compiler's library). */
static inline size_t
skel_extract_bits(const unsigned char *blk, uint64_t keep, size_t i, char *s,
    uint32_t *map)
{
	return skel_extract_n(blk, keep, sw_popcount(keep), i, s, map);
}

/*
 * Check the UTF-8 of the block at p[i] (hi: its bytes from 0x80, all in
 * strings), from *done on: sequences may go on into the next block, so
 * *done moves to where the last one ends.  0 if one is bad; one cut by
 * the end p[n] is not (it is in a string that does not end in p[0..n)).
 */
static int
skel_utf8_ok(const unsigned char *p, size_t i, size_t n, uint64_t hi,
    size_t *done)
{
	size_t j = *done;

	for (;;) {
		uint64_t rest = j <= i ? hi : j - i < 64 ?
		    hi & (~(uint64_t)0 << (j - i)) : 0;
		uint32_t cp;
		size_t k, need, e;

		if (rest == 0)
			break;
		j = i + (size_t)__builtin_ctzll(rest);
		if ((k = jenc_utf8_seq(p + j, n - j, &cp)) == 0) {
			need = p[j] >= 0xf0 ? 4 : p[j] >= 0xe0 ? 3 : 2;
			if (j + need <= n || p[j] < 0xc2 || p[j] > 0xf4)
				return 0;
			for (e = j + 1; e < n; e++)
				if ((p[e] & 0xc0) != 0x80)
					return 0;
			j = n;
			break;
		}
		j += k;
	}
	*done = j;
	return 1;
}

typedef void classify_fn(const unsigned char *, struct masks *,
    const void *);
typedef uint64_t prefix_xor_fn(uint64_t);
typedef size_t extract_fn(const unsigned char *, uint64_t, size_t, char *,
    uint32_t *);

/* What one block leaves for the next, and the skeleton so far. */
struct run {
	uint64_t in_str;	/* all ones if it ends in a string */
	uint64_t esc;		/* 1 if its last byte is an unescaped '\\' */
	uint64_t prim;		/* 1 if its last byte is in a primitive */
	size_t k;		/* the skeleton bytes written */
	size_t u8;		/* where the UTF-8 checked ends */
};

/*
 * The bytes of x (structural bytes of blk) that are glue: '{', '[' and
 * ':' have bit 1 set, '}', ']' and ',' clear.  For skel_classify_swar, whose
 * glue mask is all of st: the bytes a primitive runs into are few, where
 * gathering a mask of glue took 8% of the portable jenc -c's
 * instructions on NDJSON.
 */
static inline uint64_t
skel_glue_of(const unsigned char *blk, uint64_t x)
{
	uint64_t g = 0;

	while (x != 0) {
		int j = __builtin_ctzll(x);

		g |= (uint64_t)(blk[j] >> 1 & 1) << j;
		x &= x - 1;
	}
	return g;
}

/*
 * The block blk, at p[i] (a copy padded with spaces for the last one, the
 * bytes of p in it marked by valid): its skeleton bytes written to s and
 * map from r->k on.  0, or -1 if it is refused: a step of skel_run's
 * loop, not a call's result (internal.h), whose -1 the compiler folds
 * into the loop's tests; JENC_ST_FALLBACK here costs jenc -c 0.2% more
 * instructions on canada.json, 0.4% on code.json.
 */
static inline __attribute__((always_inline)) int
skel_block(const unsigned char *p, size_t n, size_t i,
    const unsigned char *blk, uint64_t valid, char *s, uint32_t *map,
    struct run *r, classify_fn *classify, const void *kv,
    prefix_xor_fn *pxor, extract_fn *extract)
{
	struct masks m;

	classify(blk, &m, kv);
	uint64_t esc = 0;
	if ((m.bs | r->esc) != 0)
		esc = skel_escaped(m.bs, &r->esc);
	uint64_t qu = m.q & ~esc;
	/* in a string: from its opening quote to before its closing one */
	uint64_t instr = pxor(qu) ^ r->in_str;
	r->in_str = (uint64_t)((int64_t)instr >> 63);
	uint64_t body = instr & ~qu, out = ~instr;
	uint64_t prim = out & ~(m.ws | m.st | m.q | m.bs);
	uint64_t after_prim = prim << 1 | r->prim;
	r->prim = prim >> 63;
	/* classify is a constant here (skel_run is inlined into each
	 * skel_ISA): the test costs the others nothing */
	uint64_t glue = classify == skel_classify_swar ?
	    skel_glue_of(blk, after_prim & m.st) : m.glue;
	uint64_t bad = (m.lt & ~m.hi & body) |
	    ((m.lt | m.del) & ~m.ws & out) | (m.bs & out) |
	    (after_prim & (glue | qu));

	if ((bad & valid) != 0)
		return -1;
	if ((esc & valid) != 0 && !skel_escapes_ok(p, i, n, esc & valid))
		return -1;
	if ((m.hi & valid) != 0 && !skel_utf8_ok(p, i, n, m.hi & valid, &r->u8))
		return -1;
	/* of a primitive only its first byte: jsmn checks no more of it,
	 * and its end is the byte kept after it */
	uint64_t keep = ((out & ~m.ws & ~(prim & after_prim)) |
	    (qu & instr) | (m.ws & out & after_prim)) & valid;

	r->k += extract(blk, keep, i, s + r->k, map + r->k);
	return 0;
}

/*
 * The skeleton of p[0..n), block by block, the last one through a padded
 * copy.  It ends after its last boundary byte (a bracket, ',' or ':', a
 * closing quote, a whitespace byte kept after a primitive), found at the
 * end: every one is kept, and after the last one the skeleton has at most
 * one more byte, the first of a primitive (not a boundary) or the opening
 * quote of a string that p ends in.  0 with *slen (jenc_skel finds the
 * bytes covered from the map), or JENC_ST_FALLBACK.
 */
static inline __attribute__((always_inline)) int
skel_run(const char *text, size_t n, char *s, uint32_t *map, size_t *slen,
    classify_fn *classify, const void *kv, prefix_xor_fn *pxor,
    extract_fn *extract)
{
	const unsigned char *p = (const unsigned char *)text;
	struct run r = { 0, 0, 0, 0, 0 };
	unsigned char pad[64];
	size_t i, sb;

	for (i = 0; n - i >= 64; i += 64)
		if (skel_block(p, n, i, p + i, ~(uint64_t)0, s, map, &r,
		    classify, kv, pxor, extract) != 0)
			return JENC_ST_FALLBACK;
	if (i < n) {
		memset(pad, ' ', sizeof(pad));
		memcpy(pad, p + i, n - i);
		if (skel_block(p, n, i, pad, ((uint64_t)1 << (n - i)) - 1, s,
		    map, &r, classify, kv, pxor, extract) != 0)
			return JENC_ST_FALLBACK;
	}
	sb = r.k;
	if (sb > 0 && (s[sb - 1] == '"' ? r.in_str != 0 :
	    memchr(" \t\n\r{}[],:", s[sb - 1], 10) == NULL))
		sb--;
	*slen = sb;
	return 0;
}

static int __attribute__((flatten))
skel_scalar(const char *p, size_t n, char *s, uint32_t *map, size_t *slen)
{
	return skel_run(p, n, s, map, slen, skel_classify_scalar, NULL,
	    skel_prefix_xor, skel_extract_bits);
}

static int __attribute__((flatten))
skel_swar(const char *p, size_t n, char *s, uint32_t *map, size_t *slen)
{
	return skel_run(p, n, s, map, slen, skel_classify_swar, NULL,
	    skel_prefix_xor, skel_extract_bits);
}

#ifdef SKEL_NEON
static int __attribute__((flatten))
skel_neon(const char *p, size_t n, char *s, uint32_t *map, size_t *slen)
{
	return skel_run(p, n, s, map, slen, skel_classify_neon, NULL,
	    skel_prefix_xor, skel_extract_bits);
}
#endif

#ifdef SKEL_X86
/*
 * A vector variant: as skel_scalar, for the instruction sets ISA (a target
 * attribute, or nothing), with the constants its classify step keeps in
 * registers, k[] of vector type T, filled by the statement FILL.
 */
#define SKEL_VECTOR(ISA, name, T, FILL, classify, pxor, extract)	\
	ISA static int __attribute__((flatten))				\
	name(const char *p, size_t n, char *s, uint32_t *map, size_t *slen) \
	{								\
		T k[NK];						\
									\
		FILL;							\
		return skel_run(p, n, s, map, slen, classify, k, pxor,	\
		    extract);						\
	}

SKEL_VECTOR(, skel_sse2, __m128i, SET_CONSTS(k, _mm_set1_epi8),
    skel_classify_sse2, skel_prefix_xor, skel_extract_bits)

/*
 * skel_extract_bits for AVX2: a block with more than eight bytes to keep goes
 * eight bytes at a time, each eight moved to the front by the shuffle
 * skel_lut gives for its byte of keep (vpshufb), their indices widened
 * to the map's; these steps depend on each other only through the count
 * written, where skel_extract_bits's wait on one another.  Eight or fewer
 * take one round of skel_extract_bits.
 */
__attribute__((target("avx2,popcnt,bmi"))) static inline size_t
skel_extract_avx2(const unsigned char *blk, uint64_t keep, size_t i, char *s,
    uint32_t *map)
{
	size_t cnt = (size_t)__builtin_popcountll(keep), k = 0;
	__m256i base = _mm256_set1_epi32((int)i);
	int c;

	if (cnt <= 8)
		return skel_extract_n(blk, keep, cnt, i, s, map);
	for (c = 0; c < 8; c++) {
		unsigned m = (unsigned)(keep >> (8 * c)) & 0xff;
		__m128i ix = _mm_loadl_epi64((const __m128i *)(const void *)
		    skel_lut[m]);
		__m128i d = _mm_loadl_epi64((const __m128i *)(const void *)
		    (blk + 8 * c));

		_mm_storel_epi64((__m128i *)(void *)(s + k),
		    _mm_shuffle_epi8(d, ix));
		_mm256_storeu_si256((__m256i *)(void *)(map + k),
		    _mm256_add_epi32(_mm256_cvtepu8_epi32(ix),
		    _mm256_add_epi32(base, _mm256_set1_epi32(8 * c))));
		k += (size_t)__builtin_popcount(m);
	}
	return cnt;
}

SKEL_VECTOR(__attribute__((target("avx2,pclmul,popcnt,bmi"))), skel_avx2,
    __m256i, AVX2_CONSTS(k), skel_classify_avx2, skel_prefix_xor_clmul,
    skel_extract_avx2)

SKEL_VECTOR(__attribute__((target("avx512f,avx512bw,pclmul"))), skel_avx512,
    __m512i, SET_CONSTS(k, _mm512_set1_epi8), skel_classify_avx512,
    skel_prefix_xor_clmul, skel_extract_bits)

/* skel_extract_bits with AVX-512 VBMI2's byte compress: the bytes, and their
 * indices widened sixteen at a time. */
__attribute__((target("avx512f,avx512bw,avx512vbmi2"))) static inline size_t
skel_extract_vbmi2(const unsigned char *blk, uint64_t keep, size_t i, char *s,
    uint32_t *map)
{
	static const unsigned char iota[64] = {
		0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17,
		18, 19, 20, 21, 22, 23, 24, 25, 26, 27, 28, 29, 30, 31, 32, 33,
		34, 35, 36, 37, 38, 39, 40, 41, 42, 43, 44, 45, 46, 47, 48, 49,
		50, 51, 52, 53, 54, 55, 56, 57, 58, 59, 60, 61, 62, 63,
	};
	size_t cnt = (size_t)__builtin_popcountll(keep);
	__m512i v = _mm512_loadu_si512((const void *)blk);
	__m512i ix = _mm512_maskz_compress_epi8(keep,
	    _mm512_loadu_si512((const void *)iota));
	__m512i base = _mm512_set1_epi32((int)i);

	_mm512_storeu_si512((void *)s, _mm512_maskz_compress_epi8(keep, v));
#define MAP16(q) _mm512_storeu_si512((void *)(map + 16 * (q)), \
	_mm512_add_epi32(base, \
	_mm512_cvtepu8_epi32(_mm512_extracti32x4_epi32(ix, (q)))))
	MAP16(0);
	if (cnt > 16) {
		MAP16(1);
		if (cnt > 32) {
			MAP16(2);
			if (cnt > 48)
				MAP16(3);
		}
	}
#undef MAP16
	return cnt;
}

SKEL_VECTOR(__attribute__((target("avx512f,avx512bw,avx512vbmi2,pclmul"))),
    skel_vbmi2, __m512i, SET_CONSTS(k, _mm512_set1_epi8),
    skel_classify_avx512, skel_prefix_xor_clmul, skel_extract_vbmi2)
#undef SKEL_VECTOR
#endif

typedef int skel_fn(const char *, size_t, char *, uint32_t *, size_t *);

static skel_fn *const skel_fns[JENC_SKEL_LAST + 1] = {
	[JENC_SKEL_SCALAR] = skel_scalar,
	[JENC_SKEL_SWAR] = skel_swar,
#ifdef SKEL_NEON
	[JENC_SKEL_NEON] = skel_neon,
#endif
#ifdef SKEL_X86
	[JENC_SKEL_SSE2] = skel_sse2,
	[JENC_SKEL_AVX2] = skel_avx2,
	[JENC_SKEL_AVX512] = skel_avx512,
	[JENC_SKEL_VBMI2] = skel_vbmi2,
#endif
};

/* The variant in use; -1 until the first call chooses one. */
static int skel_isa = -1;

static int
skel_supported(int isa)
{
	switch (isa) {
	case JENC_SKEL_SCALAR:
	case JENC_SKEL_SWAR:
		return 1;
#ifdef SKEL_NEON
	case JENC_SKEL_NEON:
		return 1;
#endif
#ifdef SKEL_X86
	case JENC_SKEL_SSE2:
		return 1;
	case JENC_SKEL_AVX2:
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx2") &&
		    __builtin_cpu_supports("pclmul") &&
		    __builtin_cpu_supports("popcnt") &&
		    __builtin_cpu_supports("bmi");
	case JENC_SKEL_AVX512:
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx512f") &&
		    __builtin_cpu_supports("avx512bw") &&
		    __builtin_cpu_supports("pclmul");
	case JENC_SKEL_VBMI2:
		__builtin_cpu_init();
		return __builtin_cpu_supports("avx512f") &&
		    __builtin_cpu_supports("avx512bw") &&
		    __builtin_cpu_supports("avx512vbmi2") &&
		    __builtin_cpu_supports("pclmul");
#endif
	}
	return 0;
}

int
jenc_skel_use(int isa)
{
	/* the widest first: on the 50 MB documents of bench/, jenc -c
	 * takes 7% less time with AVX-512BW than with AVX2, 13% less with
	 * VBMI2's compress too */
	static const int pref[] = { JENC_SKEL_VBMI2, JENC_SKEL_AVX512,
	    JENC_SKEL_AVX2, JENC_SKEL_SSE2, JENC_SKEL_NEON, JENC_SKEL_SWAR };
	size_t j;

	if (isa < 0) {
		for (j = 0; j < sizeof(pref) / sizeof(pref[0]); j++)
			if (skel_supported(isa = pref[j]))
				break;
	} else if (isa > JENC_SKEL_LAST) {
		return -1;
	} else if (!skel_supported(isa)) {
		return -1;
	}
	__atomic_store_n(&skel_isa, isa, __ATOMIC_RELAXED);
	return isa;
}

int
jenc_skel(const char *p, size_t n, char *s, uint32_t *map, size_t *slen,
    size_t *b)
{
	int isa = __atomic_load_n(&skel_isa, __ATOMIC_RELAXED), rc;

	if (isa < 0)
		isa = jenc_skel_use(-1);
	/* (b from the map here, not in skel_run: a sixth argument costs
	 * the classifiers' loop a register, 0.4% of jenc -c on code.json) */
	if ((rc = skel_fns[isa](p, n, s, map, slen)) == 0)
		*b = *slen > 0 ? (size_t)map[*slen - 1] + 1 : 0;
	return rc;
}
