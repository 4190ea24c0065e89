// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
// SUBSTRUCT_KERNEL marks a hot numerical loop to be compiled twice, for x86-64-v3 (AVX2/FMA)
// and for the baseline, with the processor choosing at load time; no build flag is needed.
// Results are bit-identical from call to call on one machine.
// g++ only: code that clang 14 generated for these clones, in a shared library built with
// AddressSanitizer (the fuzz preset), read through a wild pointer; clang builds use the baseline.
#if defined(__x86_64__) && defined(__GNUC__) && !defined(__clang__)
#define SUBSTRUCT_KERNEL __attribute__((target_clones("arch=x86-64-v3", "default")))
#else
#define SUBSTRUCT_KERNEL
#endif
