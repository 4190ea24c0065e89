// SPDX-License-Identifier: GPL-3.0-or-later
// What a failing command prints and the exit status it returns, for `substruct` and
// `substruct-view` alike.
#include <cstdio>
#include <exception>
#include <filesystem>
#include <string>

#include "commands.hpp"
#include "substruct/core/error.hpp"
#include "substruct/core/interrupt.hpp"

namespace substruct::cli {

int run_reporting_errors(const std::function<int()>& body) {
  try {
    return body();
  } catch (const Interrupted& e) {
    std::fprintf(stderr, "substruct: %s\n", e.what());
    return e.exit_status();
  } catch (const DivergenceError& e) {
    std::fprintf(stderr, "substruct: %s\n", e.what());
    return 3;
  } catch (const Error& e) {
    std::fprintf(stderr, "substruct: error: %s\n", e.what());
    return 1;
  } catch (const std::filesystem::filesystem_error& e) {
    // The machine's files refused (a path that is a file where a folder is needed, no space, no
    // permission): the user's to fix, so a plain error naming the paths, not an internal one.
    std::string what = e.what();  // "filesystem error: cannot …: Not a directory [PATH]"
    if (what.rfind("filesystem error: ", 0) == 0) what.erase(0, 18);
    std::fprintf(stderr, "substruct: error: %s\n", what.c_str());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "substruct: internal error: %s\n", e.what());
    return 70;
  }
}

}  // namespace substruct::cli
