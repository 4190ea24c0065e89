// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// SUBSTRUCT_HD marks a function compiled for both the host and a CUDA device: `__host__
/// __device__` under nvcc, nothing under a host compiler. Such functions work on plain data
/// (scalars, raw pointers), so the same arithmetic serves a kernel and its CPU twin.
#if defined(__CUDACC__)
#define SUBSTRUCT_HD __host__ __device__
#else
#define SUBSTRUCT_HD
#endif
