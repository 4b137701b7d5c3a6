/*
 * Test-only: libjpeg-turbo's own encoder, the oracle the JPEG encoder of derived images must match byte for
 * byte (Tests/WaterfallKitTests/Imaging/JPEGEncoderTests.swift, make sanitize).
 */
#ifndef JPEG_ORACLE_H
#define JPEG_ORACLE_H

#include <stddef.h>
#include <stdint.h>

/* The encoder as Waterfall had it before its own front end: scanlines of gray or RGB into libjpeg,
 * baseline, 4:2:0, optimize_coding, a JFIF APP0 and the ICC profile. Writes (or replaces) `path`. 0 on
 * success, -1 with `message` set. */
int oracle_write_jpeg(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height, int channels,
                      int quality, const uint8_t *icc, size_t icc_length, char *message, size_t size);

/* The same without optimize_coding (the standard Huffman tables, no profile): the floor the benchmark
 * compares with, not an oracle. */
int oracle_write_jpeg_standard_tables(const char *path, const uint8_t *pixels, uint32_t width, uint32_t height,
                                      int channels, int quality, char *message, size_t size);

/* jpeg_write_raw_data with raw_data_in: 3 planes (Y width × height, Cb and Cr ceil(width / 2) ×
 * ceil(height / 2); JCS_YCbCr, 2×2, 1×1, 1×1) or 1 gray plane, each padded to whole MCUs by repeating its
 * last column and row, optimize_coding, a JFIF APP0 and the ICC profile. */
int oracle_write_jpeg_raw(const char *path, uint8_t *const *planes, const uint32_t *widths, const uint32_t *heights,
                          int plane_count, int quality, const uint8_t *icc, size_t icc_length, char *message,
                          size_t size);

#endif
