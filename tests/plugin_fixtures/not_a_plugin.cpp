// SPDX-License-Identifier: GPL-3.0-or-later
// A shared library named like a plugin that exports no plugin symbols.
extern "C" int substruct_fixture_answer() {
  return 42;
}
