// What a failing command prints and the exit status it returns, for `substruct` and
// `substruct-view` alike.
#include <cstdio>
#include <exception>

#include "commands.hpp"
#include "substruct/core/error.hpp"

namespace substruct::cli {

int run_reporting_errors(const std::function<int()>& body) {
  try {
    return body();
  } catch (const DivergenceError& e) {
    std::fprintf(stderr, "substruct: %s\n", e.what());
    return 3;
  } catch (const Error& e) {
    std::fprintf(stderr, "substruct: error: %s\n", e.what());
    return 1;
  } catch (const std::exception& e) {
    std::fprintf(stderr, "substruct: internal error: %s\n", e.what());
    return 70;
  }
}

}  // namespace substruct::cli
