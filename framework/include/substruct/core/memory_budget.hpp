// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once
/// The memory a run may use ([run] memory_limit): large allocations are announced with an
/// estimate first and refused, with the estimate, when they would not fit, instead of ending in
/// the system's out-of-memory killer.
///
///   reserve_memory("full: the Cholesky factor of 120,000 DOFs", bytes);  // then allocate
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>

namespace substruct {

/// "auto" (the memory available when the run starts), or a size: a number with an optional unit
/// K, M, G, T (powers of 1024, also written KB, KiB, …; none = bytes), e.g. "16G", "512M",
/// "1.5GiB". Nothing when `text` is neither or the size is not positive.
std::optional<double> parse_memory_size(std::string_view text);

/// Sets the limit in bytes; 0 means "auto".
void set_memory_limit(double bytes);
/// The limit in bytes ("auto": the available memory when first asked).
double memory_limit();

/// The memory the system can give without swapping (MemAvailable of /proc/meminfo; the physical
/// memory where that is not known), and this process's resident memory, in bytes.
double available_memory();
double resident_memory();

/// Before allocating about `bytes` for `what`: logs the estimate when it is large (≥ 64 MiB),
/// and throws Error "WHAT: about X needed, Y in use: that exceeds [run] memory_limit = Z …; ADVICE
/// or raise the limit" when resident memory + `bytes` exceeds the limit. `advice` names what to
/// lower, e.g. the key of the count that sizes the allocation; by default fewer DOFs.
void reserve_memory(std::string_view what, double bytes, std::string_view advice = {});

/// "1.50 GiB", "312 MiB", "12.0 KiB", "800 B".
std::string format_bytes(double bytes);

}  // namespace substruct
