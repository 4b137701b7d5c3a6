/* Internal: the AVIF encoder's choices, shared by the encoder and its tests' expectations. Changing one
 * changes the bytes for the same request: bump Versions.avifEncoder (Support/Versions.swift). */
#ifndef WF_AVIF_SUPPORT_H
#define WF_AVIF_SUPPORT_H

/* Request quality 1-100 to the AV1 quantizer 0-63 (0 best): libavif 1.0's own mapping of its `quality`
 * field, so a quality calibrated here means the same after an upgrade to libavif 1.x:
 *     quantizer = ((100 - quality) * 63 + 50) / 100
 * quality 100 → 0, 75 → 16, 60 → 25, 50 → 32, 1 → 62. minQuantizer = maxQuantizer = that value. */
static inline int wf_avif_quantizer(int quality) { return ((100 - quality) * 63 + 50) / 100; }

/* From this speed up libaom's quantisation matrices are on: there they made tiles 10 % smaller in total at
 * the same SSIMULACRA2 (speed 9, 8-bit); at speeds 6-8 they gained nothing or cost bytes
 * (Benchmarks/calibration/results.md). */
enum { WF_AVIF_QM_MIN_SPEED = 9 };

/* Colour is coded in 8 bits. 10 bits give the same SSIMULACRA2 with 5 % fewer tile bytes and 10 % fewer
 * view bytes, but take 1.4-1.6x the encode time: fewer bytes saved per second than 8 bits
 * (Benchmarks/calibration/results.md). */
enum { WF_AVIF_COLOUR_DEPTH = 8 };

/* Alpha is coded losslessly (quantizer 0), like WebP's lossless ALPH chunk: cut-out edges stay exact. */
enum { WF_AVIF_ALPHA_QUANTIZER = 0 };

#endif
