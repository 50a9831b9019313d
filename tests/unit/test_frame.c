// SPDX-License-Identifier: GPL-2.0-only
/*
 * lib/frame: the framing the trace and the bundle share.  Round trips,
 * CRC mismatches, a 3-frame stream cut at every byte offset (each cut in
 * a buffer of exactly that size, so ASan sees any overread), padding, the
 * cursor's bounds and the byte buffer.  Host only, no bpf().
 */
#include <check.h>
#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "frame.h"

#define MAX_PAYLOAD	1024u
#define NR_FRAMES	3

static const char magic[8] = "BPFRRTS";

/* Payload lengths chosen so that the frames need 4, 7 and 0 bytes of padding. */
static const uint32_t frame_len[NR_FRAMES] = { 0, 13, 20 };

static uint8_t payload_byte(int frame, uint32_t i)
{
	return (uint8_t)(0x40 + frame * 16 + i);
}

/* prefix + 3 frames of types 1, 2, 3; frame_off[] gets each frame's offset */
static struct bpfrr_buf make_stream(size_t frame_off[NR_FRAMES + 1])
{
	struct bpfrr_buf b = { 0 };

	bpfrr_frame_put_prefix(&b, magic, 1, 2);
	for (int f = 0; f < NR_FRAMES; f++) {
		size_t start = bpfrr_frame_begin(&b);

		frame_off[f] = start;
		for (uint32_t i = 0; i < frame_len[f]; i++)
			bpfrr_buf_put_u8(&b, payload_byte(f, i));
		ck_assert_int_eq(bpfrr_frame_end(&b, start, (uint32_t)f + 1, f == 0 ? b.p : NULL, MAX_PAYLOAD), 0);
	}
	frame_off[NR_FRAMES] = b.len;
	ck_assert_int_eq(b.err, 0);
	return b;
}

static enum bpfrr_frame_status read_at(const uint8_t *data, size_t size, size_t off, bool check,
				       struct bpfrr_frame *f)
{
	return bpfrr_frame_read(data, size, off, off == BPFRR_FRAME_PREFIX_SIZE ? data : NULL, MAX_PAYLOAD,
				check, f);
}

START_TEST(crc32c_known_values)
{
	ck_assert_uint_eq(bpfrr_crc32c(0, "123456789", 9), 0xE3069283u);
	ck_assert_uint_eq(bpfrr_crc32c(bpfrr_crc32c(0, "12345", 5), "6789", 4), 0xE3069283u);
	ck_assert_uint_eq(bpfrr_crc32c(0, (uint8_t[32]){ 0 }, 32), 0x8A9136AAu);
}
END_TEST

START_TEST(round_trip)
{
	size_t off[NR_FRAMES + 1];
	struct bpfrr_buf b = make_stream(off);
	struct bpfrr_frame f;
	uint16_t major, minor;
	size_t pos = BPFRR_FRAME_PREFIX_SIZE;

	ck_assert(bpfrr_frame_magic_matches(b.p, b.len, magic));
	ck_assert(!bpfrr_frame_magic_matches(b.p, b.len, "BPFRRTR"));
	ck_assert(bpfrr_frame_magic_matches(b.p, 3, "BPFxxxx"));	/* a cut magic: only what is there */
	bpfrr_frame_prefix_version(b.p, &major, &minor);
	ck_assert_uint_eq(major, 1);
	ck_assert_uint_eq(minor, 2);
	ck_assert_uint_eq(bpfrr_load_le(b.p + 12, 4), 0);	/* reserved */

	for (int i = 0; i < NR_FRAMES; i++) {
		ck_assert_uint_eq(pos, off[i]);
		ck_assert_uint_eq(pos % BPFRR_FRAME_ALIGN, 0);
		ck_assert_int_eq(read_at(b.p, b.len, pos, true, &f), BPFRR_FRAME_OK);
		ck_assert_uint_eq(f.type, (uint32_t)i + 1);
		ck_assert_uint_eq(f.length, frame_len[i]);
		ck_assert_ptr_eq(f.payload, b.p + pos + BPFRR_FRAME_HEADER_SIZE);
		for (uint32_t j = 0; j < f.length; j++)
			ck_assert_uint_eq(f.payload[j], payload_byte(i, j));
		ck_assert(!f.pad_cut);
		pos = f.next;
	}
	ck_assert_uint_eq(pos, b.len);
	ck_assert_int_eq(read_at(b.p, b.len, pos, true, &f), BPFRR_FRAME_NO_DATA);
	bpfrr_buf_free(&b);
}
END_TEST

/* A frame sealed with a tail carries the same bytes as one with the tail appended. */
START_TEST(seal_with_tail)
{
	struct bpfrr_buf a = { 0 }, b = { 0 };
	static const uint8_t tail[] = "tail bytes";
	size_t start;
	long pad;

	start = bpfrr_frame_begin(&a);
	bpfrr_buf_put_u32(&a, 0xdeadbeef);
	pad = bpfrr_frame_seal(&a, start, 7, NULL, tail, sizeof(tail), MAX_PAYLOAD);
	ck_assert_int_eq(pad, (long)bpfrr_frame_pad(BPFRR_FRAME_HEADER_SIZE + 4 + sizeof(tail)));
	bpfrr_buf_put(&a, tail, sizeof(tail));
	bpfrr_buf_put(&a, NULL, (size_t)pad);

	start = bpfrr_frame_begin(&b);
	bpfrr_buf_put_u32(&b, 0xdeadbeef);
	bpfrr_buf_put(&b, tail, sizeof(tail));
	ck_assert_int_eq(bpfrr_frame_end(&b, start, 7, NULL, MAX_PAYLOAD), 0);

	ck_assert_uint_eq(a.len, b.len);
	ck_assert_mem_eq(a.p, b.p, a.len);
	ck_assert_uint_eq(a.len % BPFRR_FRAME_ALIGN, 0);

	/* over the maximum: refused, nothing appended */
	bpfrr_buf_reset(&b);
	start = bpfrr_frame_begin(&b);
	bpfrr_buf_put(&b, NULL, 9);
	ck_assert_int_eq(bpfrr_frame_seal(&b, start, 1, NULL, tail, sizeof(tail), 16), -EFBIG);
	ck_assert_int_eq(bpfrr_frame_end(&b, start, 1, NULL, 8), -EFBIG);
	ck_assert_uint_eq(b.len, BPFRR_FRAME_HEADER_SIZE + 9);
	bpfrr_buf_free(&a);
	bpfrr_buf_free(&b);
}
END_TEST

START_TEST(crc_mismatch)
{
	size_t off[NR_FRAMES + 1];
	struct bpfrr_buf b = make_stream(off);
	struct bpfrr_frame f;

	/* every prefix byte (covered by the first frame's CRC); the second frame's type and payload */
	for (size_t k = 0; k < b.len; k++) {
		size_t frame = k < off[0] ? 0 : 1;
		enum bpfrr_frame_status st;

		if (k >= off[0] && !(k >= off[1] && k < off[1] + 4) &&
		    !(k >= off[1] + BPFRR_FRAME_HEADER_SIZE && k < off[1] + BPFRR_FRAME_HEADER_SIZE + frame_len[1]))
			continue;
		b.p[k] ^= 0x20;
		st = read_at(b.p, b.len, off[frame], true, &f);
		ck_assert_msg(st == BPFRR_FRAME_BAD_CRC, "byte %zu flipped: status %d", k, st);
		ck_assert_uint_ne(f.crc_stored, f.crc_computed);
		ck_assert_int_eq(read_at(b.p, b.len, off[frame], false, &f), BPFRR_FRAME_OK);
		b.p[k] ^= 0x20;
		ck_assert_int_eq(read_at(b.p, b.len, off[frame], true, &f), BPFRR_FRAME_OK);
	}
	/* the stored CRC itself */
	b.p[off[2] + 8] ^= 1;
	ck_assert_int_eq(read_at(b.p, b.len, off[2], true, &f), BPFRR_FRAME_BAD_CRC);
	b.p[off[2] + 8] ^= 1;
	/* a length over the maximum is not a truncation */
	bpfrr_store_le(b.p + off[1] + 4, MAX_PAYLOAD + 1, 4);
	ck_assert_int_eq(read_at(b.p, b.len, off[1], true, &f), BPFRR_FRAME_TOO_LONG);
	ck_assert_uint_eq(f.type, 2);
	/* a length past the end is */
	bpfrr_store_le(b.p + off[1] + 4, MAX_PAYLOAD, 4);
	ck_assert_int_eq(read_at(b.p, b.len, off[1], true, &f), BPFRR_FRAME_SHORT_PAYLOAD);
	bpfrr_buf_free(&b);
}
END_TEST

/*
 * Cut the stream after every byte count: every frame that is complete in
 * the cut is read back intact, the first incomplete one is reported as
 * truncated (never as corrupt), and nothing past the cut is read.
 */
START_TEST(truncated_everywhere)
{
	size_t off[NR_FRAMES + 1];
	struct bpfrr_buf b = make_stream(off);

	for (size_t cut = BPFRR_FRAME_PREFIX_SIZE; cut <= b.len; cut++) {
		uint8_t *data = malloc(cut);	/* exactly cut bytes: ASan catches an overread */
		size_t pos = BPFRR_FRAME_PREFIX_SIZE;
		enum bpfrr_frame_status st;
		struct bpfrr_frame f;
		int complete = 0, want = 0;
		bool pad_cut = false;

		ck_assert_ptr_nonnull(data);
		memcpy(data, b.p, cut);
		for (int i = 0; i < NR_FRAMES; i++)
			if (off[i] + BPFRR_FRAME_HEADER_SIZE + frame_len[i] <= cut)
				want++;
		while ((st = read_at(data, cut, pos, true, &f)) == BPFRR_FRAME_OK) {
			ck_assert_uint_eq(f.type, (uint32_t)complete + 1);
			ck_assert_uint_eq(f.length, frame_len[complete]);
			ck_assert_uint_le(f.next, cut);
			complete++;
			pad_cut = f.pad_cut;
			pos = f.next;
			if (pad_cut)
				break;
		}
		ck_assert_msg(complete == want, "cut %zu: %d frames read, %d complete", cut, complete, want);
		if (pad_cut)
			ck_assert_uint_eq(pos, cut);
		else if (cut == b.len)
			ck_assert_int_eq(st, BPFRR_FRAME_NO_DATA);
		else
			ck_assert_msg(st == BPFRR_FRAME_NO_DATA || st == BPFRR_FRAME_SHORT_HEADER ||
				      st == BPFRR_FRAME_SHORT_PAYLOAD,
				      "cut %zu: status %d is not a truncation", cut, st);
		free(data);
	}
	bpfrr_buf_free(&b);
}
END_TEST

START_TEST(padding)
{
	size_t off[NR_FRAMES + 1];
	struct bpfrr_buf b = make_stream(off), c = { 0 };
	struct bpfrr_frame f;
	size_t pad_at = off[0] + BPFRR_FRAME_HEADER_SIZE + frame_len[0];

	ck_assert_uint_eq(bpfrr_frame_pad(12), 4);
	ck_assert_uint_eq(bpfrr_frame_pad(25), 7);
	ck_assert_uint_eq(bpfrr_frame_pad(32), 0);
	/* frame 1 (length 0) is followed by 4 zero bytes, frame 3 (length 20) by none */
	ck_assert_uint_eq(off[1] - pad_at, 4);
	ck_assert_uint_eq(off[3], off[2] + BPFRR_FRAME_HEADER_SIZE + frame_len[2]);
	for (size_t k = pad_at; k < off[1]; k++) {
		ck_assert_uint_eq(b.p[k], 0);
		b.p[k] = 1;
		ck_assert_int_eq(read_at(b.p, b.len, off[0], true, &f), BPFRR_FRAME_BAD_PADDING);
		ck_assert_uint_eq(f.bad_pad, k);
		b.p[k] = 0;
	}
	/* a cut inside the padding: the frame is complete, the cut is reported with it */
	ck_assert_int_eq(read_at(b.p, pad_at + 2, off[0], true, &f), BPFRR_FRAME_OK);
	ck_assert(f.pad_cut);
	ck_assert_uint_eq(f.next, pad_at + 2);

	bpfrr_buf_put(&c, "abc", 3);
	bpfrr_buf_align(&c, 8);
	ck_assert_uint_eq(c.len, 8);
	ck_assert_mem_eq(c.p, "abc\0\0\0\0\0", 8);
	bpfrr_buf_align(&c, 8);
	ck_assert_uint_eq(c.len, 8);
	bpfrr_buf_free(&c);
	bpfrr_buf_free(&b);
}
END_TEST

static int shorts;
static size_t short_want;

static void count_short(struct bpfrr_cursor *c, size_t want, const char *what)
{
	ck_assert(!c->failed);
	ck_assert_str_eq(what, "field");
	short_want = want;
	shorts++;
}

/* varints: every boundary value round trips in its shortest form; malformed and cut ones are told apart. */
START_TEST(varints)
{
	static const uint64_t values[] = { 0, 1, 127, 128, 16383, 16384, UINT32_MAX, 1ull << 63, UINT64_MAX };
	static const size_t sizes[] = { 1, 1, 1, 2, 2, 3, 5, 10, 10 };
	static const int64_t signed_values[] = { 0, -1, 1, -64, 64, INT64_MIN, INT64_MAX };
	uint8_t enc[BPFRR_VARINT_MAX];
	uint64_t v;

	for (size_t i = 0; i < sizeof(values) / sizeof(values[0]); i++) {
		size_t n = bpfrr_varint_encode(enc, values[i]);

		ck_assert_uint_eq(n, sizes[i]);
		ck_assert_int_eq(bpfrr_varint_decode(enc, n, &v), (int)n);
		ck_assert_uint_eq(v, values[i]);
		for (size_t cut = 0; cut < n; cut++)
			ck_assert_int_eq(bpfrr_varint_decode(enc, cut, &v), 0);
	}
	for (size_t i = 0; i < sizeof(signed_values) / sizeof(signed_values[0]); i++)
		ck_assert_int_eq(bpfrr_unzigzag(bpfrr_zigzag(signed_values[i])), signed_values[i]);
	ck_assert_uint_eq(bpfrr_zigzag(-1), 1);
	ck_assert_uint_eq(bpfrr_zigzag(1), 2);
	/* not the shortest form, over 64 bits, longer than 10 bytes */
	ck_assert_int_eq(bpfrr_varint_decode((const uint8_t *)"\x80\x00", 2, &v), -1);
	ck_assert_int_eq(bpfrr_varint_decode((const uint8_t *)"\xff\xff\xff\xff\xff\xff\xff\xff\xff\x02", 10, &v), -1);
	ck_assert_int_eq(bpfrr_varint_decode((const uint8_t *)"\x80\x80\x80\x80\x80\x80\x80\x80\x80\x81\x00", 11, &v),
			 -1);
}
END_TEST

/* Compact frames (trace 2.x): round trip, every cut, a malformed length, a CRC flip. */
START_TEST(compact_frames)
{
	uint8_t buf[64], hdr[BPFRR_CFRAME_HEADER_MAX];
	struct bpfrr_frame f;
	size_t n, total;

	memcpy(buf, magic, 8);
	memset(buf + 8, 0, 8);
	n = bpfrr_cframe_header(hdr, 300, buf, "abc", 3, "de", 2);
	ck_assert_uint_eq(n, 2 + 1 + 4);
	ck_assert_uint_eq(bpfrr_cframe_header_size(300, 5), n);
	memcpy(buf + 16, hdr, n);
	memcpy(buf + 16 + n, "abcde", 5);
	total = 16 + n + 5;
	ck_assert_int_eq(bpfrr_cframe_read(buf, total, 16, buf, MAX_PAYLOAD, true, &f), BPFRR_FRAME_OK);
	ck_assert_uint_eq(f.type, 300);
	ck_assert_uint_eq(f.length, 5);
	ck_assert_mem_eq(f.payload, "abcde", 5);
	ck_assert_uint_eq(f.next, total);
	for (size_t cut = 16; cut < total; cut++) {
		enum bpfrr_frame_status st = bpfrr_cframe_read(buf, cut, 16, buf, MAX_PAYLOAD, true, &f);

		ck_assert_int_eq(st, cut == 16 ? BPFRR_FRAME_NO_DATA :
				 cut < 16 + n ? BPFRR_FRAME_SHORT_HEADER : BPFRR_FRAME_SHORT_PAYLOAD);
	}
	ck_assert_int_eq(bpfrr_cframe_read(buf, total, 16, buf, 4, true, &f), BPFRR_FRAME_TOO_LONG);
	buf[16 + n + 2] ^= 1;
	ck_assert_int_eq(bpfrr_cframe_read(buf, total, 16, buf, MAX_PAYLOAD, true, &f), BPFRR_FRAME_BAD_CRC);
	ck_assert_int_eq(bpfrr_cframe_read(buf, total, 16, buf, MAX_PAYLOAD, false, &f), BPFRR_FRAME_OK);
	buf[16 + 2] = 0x80;	/* the length's varint runs on */
	buf[16 + 3] = 0x00;
	ck_assert_int_eq(bpfrr_cframe_read(buf, total, 16, buf, MAX_PAYLOAD, true, &f), BPFRR_FRAME_BAD_HEADER);
}
END_TEST

START_TEST(cursor_bounds)
{
	static const uint8_t bytes[6] = { 1, 2, 3, 4, 5, 6 };
	uint8_t *data = malloc(sizeof(bytes));	/* exactly sized: ASan catches an overread */
	struct bpfrr_cursor c = { .len = sizeof(bytes), .on_short = count_short };

	ck_assert_ptr_nonnull(data);
	memcpy(data, bytes, sizeof(bytes));
	c.p = data;
	shorts = 0;
	ck_assert_uint_eq(bpfrr_cursor_le(&c, 2, "field"), 0x0201);
	ck_assert_uint_eq(bpfrr_cursor_left(&c), 4);
	ck_assert(!bpfrr_cursor_need(&c, SIZE_MAX, "field"));	/* no wrap-around */
	ck_assert(c.failed);
	ck_assert_int_eq(shorts, 1);
	ck_assert_uint_eq(short_want, SIZE_MAX);
	ck_assert_uint_eq(c.pos, 2);

	/* a fresh cursor: read to the end exactly, then one byte more */
	c = (struct bpfrr_cursor){ .p = data, .len = sizeof(bytes), .on_short = count_short };
	shorts = 0;
	ck_assert_uint_eq(bpfrr_cursor_le(&c, 4, "field"), 0x04030201);
	ck_assert_ptr_eq(bpfrr_cursor_bytes(&c, 2, "field"), data + 4);
	ck_assert_uint_eq(bpfrr_cursor_left(&c), 0);
	ck_assert_ptr_eq(bpfrr_cursor_bytes(&c, 0, "field"), data + 6);
	ck_assert(!c.failed);
	ck_assert_uint_eq(bpfrr_cursor_le(&c, 1, "field"), 0);
	ck_assert(c.failed);
	ck_assert_int_eq(shorts, 1);
	ck_assert_uint_eq(short_want, 1);
	/* a failed cursor reads nothing more and reports once */
	ck_assert_ptr_null(bpfrr_cursor_bytes(&c, 0, "field"));
	ck_assert_uint_eq(bpfrr_cursor_le(&c, 8, "field"), 0);
	ck_assert_int_eq(shorts, 1);
	ck_assert_uint_eq(c.pos, 6);
	free(data);
}
END_TEST

START_TEST(buffer_grows)
{
	struct bpfrr_buf b = { 0 };

	for (uint32_t i = 0; i < 100000; i++)
		bpfrr_buf_put_u32(&b, i);
	ck_assert_int_eq(b.err, 0);
	ck_assert_uint_eq(b.len, 400000);
	ck_assert_uint_ge(b.cap, b.len);
	for (uint32_t i = 0; i < 100000; i += 997)
		ck_assert_uint_eq(bpfrr_load_le(b.p + 4 * i, 4), i);
	bpfrr_buf_put_u64(&b, 0x0102030405060708ull);
	ck_assert_mem_eq(b.p + 400000, "\x08\x07\x06\x05\x04\x03\x02\x01", 8);
	bpfrr_buf_reset(&b);
	ck_assert_uint_eq(b.len, 0);
	bpfrr_buf_put(&b, NULL, 3);
	ck_assert_mem_eq(b.p, "\0\0\0", 3);
	/* a sticky error drops every later append */
	b.err = -ENOMEM;
	bpfrr_buf_put_u8(&b, 1);
	ck_assert_uint_eq(b.len, 3);
	bpfrr_buf_free(&b);
	ck_assert_ptr_null(b.p);
}
END_TEST

static Suite *frame_suite(void)
{
	Suite *s = suite_create("frame");
	TCase *tc = tcase_create("frame");

	tcase_add_test(tc, crc32c_known_values);
	tcase_add_test(tc, round_trip);
	tcase_add_test(tc, seal_with_tail);
	tcase_add_test(tc, crc_mismatch);
	tcase_add_test(tc, truncated_everywhere);
	tcase_add_test(tc, padding);
	tcase_add_test(tc, varints);
	tcase_add_test(tc, compact_frames);
	tcase_add_test(tc, cursor_bounds);
	tcase_add_test(tc, buffer_grows);
	suite_add_tcase(s, tc);
	return s;
}

int main(void)
{
	SRunner *sr = srunner_create(frame_suite());
	int failed;

	srunner_run_all(sr, CK_ENV);
	failed = srunner_ntests_failed(sr);
	srunner_free(sr);
	return failed ? 1 : 0;
}
